// The abort a run-time limit raises (`maxRefDepth`, `maxEvaluationSteps`): an `EvaluationAborted` naming the limit.
//
// Naming it lets `validateOrThrow` throw `EvaluationLimitError` rather than blame the value.

import { EvaluationAborted } from './pattern.js';

export class LimitAborted extends EvaluationAborted {
  constructor(
    /** The `limits` option that was passed. */
    readonly limit: 'maxRefDepth' | 'maxEvaluationSteps',
    /** Its value. */
    readonly value: number,
    keyword: string,
    schemaPath: string,
    message: string,
  ) {
    super(keyword, schemaPath, message);
  }
}
