/**
 * Text as a terminal shows it (issue 16): on a terminal each line wider than
 * it is cut after a comma or a full stop, or at a space, and continued
 * indented (the domain's `wrapTextToWidth`; the terminal itself cut inside a
 * word), at most columns - 1 like the progress line. A pipe or a file gets
 * the text as it is: one line per message, as the log has them.
 *
 * @module
 */
import { wrapTextToWidth } from "@sagasu/domain"

/** `text` (one or more lines) as `stream` should show it; see the module doc. */
export const forTerminal = (text: string, stream: NodeJS.WriteStream = process.stdout): string =>
  stream.isTTY === true ? wrapTextToWidth(text, (stream.columns || 80) - 1) : text
