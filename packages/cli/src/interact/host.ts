// How mcpc answers a server's requests: elicitation and sampling at the terminal, declined when no one is there.
import type { ClientOptions } from '@mcpc/client';
import type { CliContext } from '../context.js';

/** The host handlers for the client: interactive forms on a terminal, a declining answer otherwise. */
export function hostOptions(ctx: CliContext): Pick<ClientOptions, 'onElicitation' | 'onSampling' | 'elicitationModes'> {
  return {
    elicitationModes: ['form', 'url'],
    onElicitation: (request) => {
      ctx.out.note(`the server asked for input (${request.message}); declined: not interactive`);
      return { action: 'decline' };
    },
    onSampling: () => {
      ctx.out.note('the server asked for a model completion (sampling); declined: mcpc calls no model');
      throw new Error('declined: mcpc calls no model');
    },
  };
}
