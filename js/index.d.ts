// dmlref: DirectML's data-movement operators computed bit for bit (the C library as WebAssembly).
// js/README.md describes the API; the operator functions are declared in functions.d.ts.

/** WebNN's data type names (plus int16, uint16, float64). */
export type DataTypeName =
  | 'float32' | 'float16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'int8' | 'uint8'
  | 'int16' | 'uint16' | 'float64';

/** float16 data: its bits in a Uint16Array, or a Float16Array where the runtime has one. */
export type Float16Data = Uint16Array | (ArrayBufferView & { readonly length: number; readonly BYTES_PER_ELEMENT: number });

export type TensorData =
  | Float32Array | Float64Array | Uint16Array | Int32Array | Uint32Array | Int16Array
  | Int8Array | Uint8Array | BigInt64Array | BigUint64Array | Float16Data;

/**
 * A tensor: dataType, shape (DirectML's Sizes), data (a typed array of the type: float16 as
 * Uint16Array bits, int64/uint64 as BigInt64Array/BigUint64Array), strides (in elements) only
 * where a layout gives them.  An output's data is a copy of the whole output buffer, as
 * `dmlref run --npy` writes it (a packed float16/int8 buffer is padded to 4 bytes); the operator
 * functions return the elements only.
 */
export interface Tensor {
  dataType: DataTypeName;
  shape: number[];
  data: TensorData;
  strides?: number[];
}

/** A tensor given to the library: as Tensor, data optional for an output's description. */
export interface TensorInput {
  dataType: DataTypeName | string;
  shape: ArrayLike<number>;
  data?: TensorData;
  strides?: ArrayLike<number>;
}

/** The command's exit classes (docs/cli.md), DmlrefError.exitClass. */
export type ExitClass = 'differ' | 'invalid' | 'malformed' | 'usage' | 'system' | 'host_limit' | 'cannot_verify'
  | 'out_of_memory';

/** A failure: the library's verdict on a descriptor or an execution error, a malformed case,
 * outputs that differ from a case's expected values. */
export declare class DmlrefError extends Error {
  /** The library's status name ('DMLREF_ERROR_PARAMETER'), or for a failure the library did not
   * report the command's exit status name ('CASE_MALFORMED', 'CASE_DIFFER', 'CASE_OUT_OF_MEMORY'). */
  status: string;
  /** The operator ('GATHER'), or null where the case was not read that far. */
  operator: string | null;
  /** The descriptor field the rule is about ('Axis'), or ''. */
  field: string;
  /** The rule's id in docs/operators.md ('G3'), or ''. */
  rule: string;
  /** The message the command prints after "dmlref: CASE.json: ". */
  message: string;
  /** `dmlref run`'s exit status for the case (1 differ, 2 invalid, 3 malformed, ... 8 out of memory). */
  exitCode: number;
  exitClass: ExitClass;
  /** CASE_DIFFER: the outputs that differ from `expected`. */
  outputs?: Record<string, Tensor>;
}

export interface RunOptions {
  /** Bytes of the .npy files the case's "npy" references name (relative paths). */
  files?: Record<string, Uint8Array | ArrayBuffer>;
  /** An out-of-range index or a duplicate scatter target is an error (else a warning, clamped). */
  strict?: boolean;
  /** Receives the command's warning (clamped indices); console.warn by default. */
  onWarning?: (message: string) => void;
}

/** Options every operator function takes besides its parameters. */
export interface OperatorOptions {
  /** The feature level: '6_4' (default: the highest), '4_1', ... */
  featureLevel?: string;
  /** An out-of-range index or a duplicate scatter target is a DmlrefError (else clamped, last wins). */
  checkIndices?: boolean;
  /** An output slot's type other than the one the function picks ({OutputIndexTensor: 'uint64'}). */
  outputDataTypes?: Record<string, DataTypeName>;
  onWarning?: (message: string) => void;
}

/** Resolves once the WebAssembly module is ready: await it before the first call. */
export declare const ready: Promise<typeof import('./index.js').default>;
/** The same promise as `ready`. */
export declare function load(): Promise<typeof import('./index.js').default>;
/** The library's version ('0.1.0'). */
export declare function version(): string;
/** The data type names the package knows. */
export declare const dataTypes: DataTypeName[];

/** Runs a case in the command's JSON format (an object or its text); tensors may carry typed
 * arrays.  Returns each output by its `run --npy` file name: 'OutputTensor', 'OutputTensors_2'. */
export declare function run(caseObject: object | string, options?: RunOptions): Record<string, Tensor>;
/** Node only: runs a case file and the .npy files it references (relative to its folder). */
export declare function runCaseFile(path: string, options?: RunOptions): Promise<Record<string, Tensor>>;
/** The case object an operator function builds (derive_output_sizes: true). */
export declare function operatorCase(operator: string, inputs: Array<TensorInput | TensorInput[] | null | undefined>,
  options?: Record<string, unknown>): object;
/** Calls an operator by its DirectML name ('GATHER'), as its function does. */
export declare function callOperator(operator: string, inputs: Array<TensorInput | TensorInput[] | null | undefined>,
  options?: Record<string, unknown>): Tensor | Tensor[] | Record<string, Tensor | Tensor[]>;
/** Every operator function by its name. */
export declare const operators: Record<string, (...args: any[]) => Tensor | Tensor[] | Record<string, Tensor | Tensor[]>>;

export * from './functions.js';

declare const dmlref: {
  ready: typeof ready; load: typeof load; version: typeof version; run: typeof run; runCaseFile: typeof runCaseFile;
  DmlrefError: typeof DmlrefError; dataTypes: typeof dataTypes; operators: typeof operators;
  operatorCase: typeof operatorCase; callOperator: typeof callOperator;
} & typeof import('./functions.js');
export default dmlref;
