// What `mcpc doctor` found: its steps (a fact each, ok or not) and the problems with what to do.
//
// It also holds the time limits the checks share.
export interface Step {
  name: string;
  ok: boolean;
  detail: string;
}
export interface Problem {
  problem: string;
  fix: string;
}

/** One network step's time limit. */
export const STEP_MS = 5_000;
/** Redirect hops followed at most. */
export const MAX_HOPS = 5;

export class Report {
  readonly steps: Step[] = [];
  readonly problems: Problem[] = [];
  step(name: string, ok: boolean, detail: string): void {
    this.steps.push({ name, ok, detail });
  }
  problem(problem: string, fix: string): void {
    if (!this.problems.some((p) => p.problem === problem)) this.problems.push({ problem, fix });
  }
}

export const messageOf = (e: unknown): string =>
  e instanceof Error
    ? `${(e as { code?: string }).code ? `${(e as { code?: string }).code}: ` : ''}${e.message}`
    : String(e);

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
