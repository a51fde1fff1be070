/** The product version shown by `--version` and in the log header (R4). */
export const version = "0.1.0"
