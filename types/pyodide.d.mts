// The parts of a vendored engine the workers use (static/vendor, copied from npm by scripts/_setup.sh
// and imported by URL, so tsc cannot see the package's own types there; tsconfig.json maps the URL here).

/** A Python object seen from JavaScript; calls and conversions happen in Python. */
export interface PyProxy {
  (...args: unknown[]): unknown;
  toJs(options?: { dict_converter?: (entries: Iterable<[string, unknown]>) => unknown }): unknown;
  destroy(): void;
}
export interface PyodideInterface {
  runPython(code: string): unknown;
  unpackArchive(buffer: ArrayBuffer, format: string, options?: { extractDir?: string }): void;
  globals: { get(name: string): PyProxy };
  toPy(value: unknown): unknown;
}
export function loadPyodide(options: { indexURL: string }): Promise<PyodideInterface>;
