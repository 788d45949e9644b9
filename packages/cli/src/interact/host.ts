// How mcpc answers a server's requests: elicitation and sampling at the terminal, declined when no one is there.
import type { ClientOptions } from '@mcpc/client';
import type {
  ElicitationResult,
  ElicitationValue,
  FormElicitation,
  HostRequestContext,
  SamplingContent,
  SamplingRequest,
  SamplingResult,
  UrlElicitation,
} from '@mcpc/client/types';
import type { CliContext } from '../context.js';
import { safe } from '../output.js';
import { checkAnswer, defaultLabel, fieldsOf, hintOf, valueLabel, type Field } from './form.js';
import { withReader, type LineReader } from './terminal.js';

/** Wrong answers to one field before the whole form is declined. */
const TRIES = 5;

/** The host handlers for the client: interactive forms on a terminal, a declining answer otherwise. */
export function hostOptions(ctx: CliContext): Pick<ClientOptions, 'onElicitation' | 'onSampling' | 'elicitationModes'> {
  return {
    elicitationModes: ['form', 'url'],
    onElicitation: async (request, context) => {
      if (!ctx.interactive) {
        ctx.out.note(
          `mcpc: ${safe(context.server, 100)} asked for input ("${safe(request.message, 200)}"); declined: not interactive`,
        );
        return { action: 'decline' };
      }
      const signal = AbortSignal.any([context.signal, ctx.signal]);
      return withReader(ctx, (reader) =>
        request.mode === 'url'
          ? askUrl(ctx, reader, request, context.server, signal)
          : askForm(ctx, reader, request, context.server, signal),
      );
    },
    onSampling: async (request, context) => {
      if (!ctx.interactive) {
        ctx.out.note(
          `mcpc: ${safe(context.server, 100)} asked for a model completion (sampling); declined: not interactive (mcpc calls no model)`,
        );
        throw new Error('declined: the user is not at a terminal and mcpc calls no model');
      }
      const signal = AbortSignal.any([context.signal, ctx.signal]);
      return withReader(ctx, (reader) => askSampling(ctx, reader, request, context, signal));
    },
  };
}

/** A typed line that stops the form: `:decline` or `:cancel`. */
function command(line: string): 'decline' | 'cancel' | undefined {
  const word = line.trim().toLowerCase();
  return word === ':decline' ? 'decline' : word === ':cancel' ? 'cancel' : undefined;
}

async function askForm(
  ctx: CliContext,
  reader: LineReader,
  request: FormElicitation,
  server: string,
  signal: AbortSignal,
): Promise<ElicitationResult> {
  const { out } = ctx;
  const e = (style: Parameters<typeof out.errStyle>[0], text: string): string => out.errStyle(style, text);
  const fields = fieldsOf(request.requestedSchema);
  reader.write(`\n${e('bold', `${safe(server, 100)} asks:`)} ${safe(request.message)}\n`);
  reader.write(
    e(
      'dim',
      'Enter keeps the [default]; * marks a required field; type :decline or :cancel to stop (Ctrl-D cancels).',
    ) + '\n',
  );
  const content: Record<string, ElicitationValue> = {};
  for (const field of fields) {
    reader.write(`\n${describe(ctx, field)}`);
    let tries = 0;
    for (;;) {
      const answer = await reader.ask(promptOf(ctx, field), signal);
      if (answer.kind !== 'line') {
        reader.write('\n');
        return { action: 'cancel' };
      }
      const stop = command(answer.line);
      if (stop !== undefined) return { action: stop };
      const checked = checkAnswer(field, answer.line);
      if (checked.ok) {
        if (checked.value !== undefined) content[field.key] = checked.value;
        break;
      }
      tries++;
      if (tries >= TRIES) {
        reader.write(`${e('red', 'too many invalid answers:')} the form is declined\n`);
        return { action: 'decline' };
      }
      reader.write(`  ${e('yellow', '✗')} ${checked.why} (${TRIES - tries} more tries)\n`);
    }
  }
  // What will be sent, once more, before it goes.
  reader.write(`\n${e('bold', 'To send:')}\n`);
  for (const field of fields) {
    const value = content[field.key];
    if (value !== undefined) reader.write(`  ${safe(field.title, 80)}: ${safe(valueLabel(field, value), 200)}\n`);
  }
  for (let tries = 0; tries < TRIES; tries++) {
    const answer = await reader.ask(`Send it to ${safe(server, 100)}? [Y/n] `, signal);
    if (answer.kind !== 'line') {
      reader.write('\n');
      return { action: 'cancel' };
    }
    const stop = command(answer.line);
    if (stop !== undefined) return { action: stop };
    const word = answer.line.trim().toLowerCase();
    if (word === '' || word === 'y' || word === 'yes') return { action: 'accept', content };
    if (word === 'n' || word === 'no') return { action: 'decline' };
  }
  return { action: 'decline' };
}

/** The lines above a field's prompt: its title, description and choices. */
function describe(ctx: CliContext, field: Field): string {
  const { out } = ctx;
  const title = `${safe(field.title, 100)}${field.title !== field.key ? out.errStyle('dim', ` (${safe(field.key, 60)})`) : ''}`;
  let text = `${out.errStyle('bold', title)}${field.required ? out.errStyle('red', ' *') : ''}\n`;
  if (field.description !== undefined) text += `  ${out.errStyle('dim', safe(field.description, 500))}\n`;
  field.choices.forEach((c, i) => {
    text += `  ${String(i + 1).padStart(2)}) ${safe(c.label, 100)}${c.label !== c.value ? out.errStyle('dim', ` [${safe(c.value, 60)}]`) : ''}\n`;
  });
  return text;
}

function promptOf(ctx: CliContext, field: Field): string {
  const d = defaultLabel(field);
  const hint = ctx.out.errStyle('dim', `(${hintOf(field)})`);
  return `  ${hint}${d === undefined ? '' : ` [${safe(d, 100)}]`} > `;
}

async function askUrl(
  ctx: CliContext,
  reader: LineReader,
  request: UrlElicitation,
  server: string,
  signal: AbortSignal,
): Promise<ElicitationResult> {
  const { out } = ctx;
  let host = '';
  try {
    host = new URL(request.url).host;
  } catch {
    host = '(not a valid URL)';
  }
  reader.write(`\n${out.errStyle('bold', `${safe(server, 100)} asks you to open a page:`)} ${safe(request.message)}\n`);
  reader.write(`  ${safe(request.url, 4_000)}\n`);
  reader.write(`  ${out.errStyle('dim', `host: ${safe(host, 200)}`)}\n`);
  const answer = await reader.ask(
    'Open it in your browser, then press Enter (:decline to refuse, Ctrl-D or :cancel to cancel) ',
    signal,
  );
  if (answer.kind !== 'line') {
    reader.write('\n');
    return { action: 'cancel' };
  }
  return { action: command(answer.line) ?? 'accept' };
}

/** The text of a sampling message's content, with placeholders for what a terminal cannot show. */
function contentText(content: SamplingContent | readonly SamplingContent[]): string {
  const list: readonly SamplingContent[] = Array.isArray(content) ? content : [content as SamplingContent];
  return list
    .map((c) => {
      switch (c.type) {
        case 'text':
          return safe(c.text, 4_000);
        case 'image':
        case 'audio':
          return `[${c.type}, ${safe(c.mimeType, 60)}]`;
        default:
          return `[${safe(c.type, 40)}]`;
      }
    })
    .join('\n');
}

async function askSampling(
  ctx: CliContext,
  reader: LineReader,
  request: SamplingRequest,
  context: HostRequestContext,
  signal: AbortSignal,
): Promise<SamplingResult> {
  const { out } = ctx;
  const d = (text: string): string => out.errStyle('dim', text);
  reader.write(
    `\n${out.errStyle('bold', `${safe(context.server, 100)} asks for a model completion (sampling).`)} ${d('mcpc calls no model: you can answer it yourself.')}\n`,
  );
  if (request.systemPrompt !== undefined) reader.write(`${d('system:')} ${safe(request.systemPrompt, 4_000)}\n`);
  for (const message of request.messages)
    reader.write(`${d(`${message.role}:`)} ${contentText(message.content).replace(/\n/g, '\n  ')}\n`);
  const facts = [`maxTokens ${request.maxTokens}`];
  if (request.temperature !== undefined) facts.push(`temperature ${request.temperature}`);
  const prefs = request.modelPreferences;
  if (prefs !== undefined) {
    const hints = (prefs.hints ?? []).map((h) => h.name).filter((n) => n !== undefined);
    if (hints.length > 0) facts.push(`models ${safe(hints.join(', '), 200)}`);
    for (const key of ['costPriority', 'speedPriority', 'intelligencePriority'] as const)
      if (prefs[key] !== undefined) facts.push(`${key} ${prefs[key]}`);
  }
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    facts.push(`stop ${safe(JSON.stringify(request.stopSequences), 200)}`);
  if (request.tools !== undefined && request.tools.length > 0) facts.push(`${request.tools.length} tools offered`);
  reader.write(`${d(facts.join(' · '))}\n`);

  const answer = await reader.ask('Accept and type the reply yourself? [y/N] ', signal);
  const word = answer.kind === 'line' ? answer.line.trim().toLowerCase() : '';
  if (word !== 'y' && word !== 'yes') {
    if (answer.kind !== 'line') reader.write('\n');
    throw new Error('the user rejected the sampling request');
  }
  reader.write(d('Type the reply; an empty line ends it (Ctrl-D cancels).') + '\n');
  const lines: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    const next = await reader.ask(lines.length === 0 ? 'reply> ' : '    > ', signal);
    if (next.kind !== 'line') {
      reader.write('\n');
      throw new Error('the user cancelled the sampling request');
    }
    if (next.line === '') break;
    lines.push(next.line);
  }
  if (lines.length === 0) throw new Error('the user gave no reply to the sampling request');
  return {
    role: 'assistant',
    model: 'mcpc-user',
    content: { type: 'text', text: lines.join('\n') },
    stopReason: 'endTurn',
  };
}
