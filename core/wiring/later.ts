/**
 * A value one wiring step hands to a step that runs before it: the one
 * place the wiring is not a straight line (the delivery plugins' `ongoing`
 * port asks the feed plugins' contexts, which the pipeline step makes
 * later). The earlier step may read it only at run time; a read before the
 * later step gave it fails naming what is missing, never as `undefined`.
 */
export class Later<T> {
  readonly #name: string;
  #value: { readonly value: T } | undefined;

  constructor(name: string) {
    this.#name = name;
  }

  give(value: T): void {
    if (this.#value) throw new Error(`${this.#name} was given twice`);
    this.#value = { value };
  }

  get(): T {
    if (!this.#value) throw new Error(`${this.#name} read before the wiring step that makes it ran`);
    return this.#value.value;
  }
}
