// The API's request bodies, checked: untrusted JSON into each route's declared request, or a 400.
import type { CompleteRequest } from '@mcpc/client/types';
import type { CallRequest, DialogReply, RequestOf } from '../contract/api.js';
import type { OpenDialog } from './dialogs.js';
import { isRecord, need } from './http.js';

export function callBody(body: unknown): CallRequest {
  need(isRecord(body) && typeof body.tool === 'string', '"tool" (a string) is required');
  need(body.arguments === undefined || isRecord(body.arguments), '"arguments" must be an object');
  return {
    tool: body.tool,
    ...(body.arguments !== undefined && { arguments: body.arguments }),
    ...(body.asTask === true && { asTask: true }),
  };
}

export function promptBody(body: unknown): { name: string; arguments: Record<string, string> } {
  need(isRecord(body) && typeof body.name === 'string', '"name" (a string) is required');
  need(body.arguments === undefined || isRecord(body.arguments), '"arguments" must be an object');
  // The client checks each argument is a string (a prompt's arguments are).
  return { name: body.name, arguments: (body.arguments ?? {}) as Record<string, string> };
}

export function completeBody(body: unknown): CompleteRequest {
  need(isRecord(body) && isRecord(body.ref) && isRecord(body.argument), '"ref" and "argument" are required');
  // The client checks the reference's type and the argument's fields before it sends them.
  const request = { ref: body.ref, argument: body.argument } as unknown as CompleteRequest;
  return body.context === undefined
    ? request
    : { ...request, context: body.context as NonNullable<CompleteRequest['context']> };
}

export function uriBody(body: unknown): RequestOf<'POST /api/servers/:id/read'> {
  need(isRecord(body) && typeof body.uri === 'string', '"uri" (a string) is required');
  return { uri: body.uri };
}

/** An answer fit for the dialog it answers: elicitation's accept/decline/cancel, sampling's accept (a text) or reject. */
export function dialogAnswer(dialog: OpenDialog, body: unknown): DialogReply {
  const answer = isRecord(body) ? body.answer : undefined;
  need(isRecord(answer), '"answer" (an object) is required');
  if (dialog.kind === 'elicitation') {
    const { action, content } = answer;
    need(
      action === 'accept' || action === 'decline' || action === 'cancel',
      'answer.action is accept, decline or cancel',
    );
    need(content === undefined || isRecord(content), 'answer.content must be an object');
    return { action, ...(content !== undefined && { content }) };
  }
  need(answer.action === 'accept' || answer.action === 'reject', 'answer.action is accept or reject');
  if (answer.action === 'reject') return { action: 'reject' };
  need(typeof answer.text === 'string', 'answer.text (a string) is required');
  return { action: 'accept', text: answer.text };
}
