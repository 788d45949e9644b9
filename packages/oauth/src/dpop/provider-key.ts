// The provider's one DPoP key: generated (or imported) once at construction, awaited where a proof needs it.
import { DPoPKey, type DPoPOptions } from './dpop.js';

export class ProviderDPoPKey {
  readonly #ready: Promise<DPoPKey>;
  #key: DPoPKey | undefined;

  constructor(options: DPoPOptions) {
    this.#ready = DPoPKey.create(options).then((k) => (this.#key = k));
    this.#ready.catch(() => {}); // reported where it is awaited
  }

  /** The key once it exists (undefined while it is being made): a nonce or a thumbprint needs no waiting. */
  get current(): DPoPKey | undefined {
    return this.#key;
  }

  /** The key, once made; rejects when it could not be. */
  key(): Promise<DPoPKey> {
    return this.#ready;
  }
}
