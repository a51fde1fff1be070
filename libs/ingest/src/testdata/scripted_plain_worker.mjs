// A plain worker thread for workers.test.ts: the protocol of worker/_plain_protocol.ts (files read one
// at a time in the order they came, the stop word looked at when a file is taken), with scripted
// behaviour by file name instead of extraction: `hang` never ends (a stuck parse), `oom` fills the
// heap until the thread's limit, `crash` throws outside any handler; any other file is done at once,
// its result naming the thread (tsvCount) and the order it was read in (lines).
import { parentPort, threadId, workerData } from "node:worker_threads"

const control = new Int32Array(workerData.control)
const queue = []
let reading = false
let order = 0

function readQueue() {
  reading = true
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (Atomics.load(control, 0) !== 0) {
      parentPort.postMessage({ _tag: "result", seq: file.seq, result: { status: "stopped", log: [] } })
      continue
    }
    const name = file.path.replace(/\.[^.]*$/, "")
    if (name === "hang") for (;;) {}
    if (name === "oom") {
      const hoard = []
      for (;;) hoard.push(new Array(100_000).fill(hoard.length))
    }
    if (name === "crash") setImmediate(() => { throw new Error("scripted crash") })
    // The thread that read it and the order it was read in, as tsvCount and lines (the log holds notes, FileNote).
    else parentPort.postMessage({ _tag: "result", seq: file.seq, result: { status: "done", tsvCount: threadId, log: [], lines: ++order } })
    if (name === "crash") return
  }
  reading = false
}

parentPort.on("message", (m) => {
  queue.push(m)
  if (!reading) readQueue()
})
parentPort.postMessage({ _tag: "ready" })
