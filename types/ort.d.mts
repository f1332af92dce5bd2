// The parts of a vendored engine the workers use (static/vendor, copied from npm by scripts/_setup.sh
// and imported by URL, so tsc cannot see the package's own types there; tsconfig.json maps the URL here).

export class Tensor {
  constructor(type: "float32", data: Float32Array, dims: number[]);
  readonly data: Float32Array;
  readonly dims: readonly number[];
}
export interface InferenceSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, Tensor>): Promise<Record<string, Tensor>>;
}
export const InferenceSession: {
  create(model: Uint8Array, options?: { executionProviders?: string[]; graphOptimizationLevel?: string }): Promise<InferenceSession>;
};
export const env: { wasm: { wasmPaths: string; numThreads: number } };
