/** A plugin source that does not compile: the file and (when known) the line, with esbuild's or JSON's message. */
export class CompileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(line === null ? `${file}: ${reason}` : `${file}, line ${line}: ${reason}`);
  }
}
