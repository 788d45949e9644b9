// The Skills view's routes (SEP-2640): listings, one entry, a load approved in the page, verified reads step by step.
import { createHash } from 'node:crypto';
import {
  AmbiguousNameError,
  CapabilityError,
  NotFoundError,
  SkillApprovalError,
  SkillEntryError,
  SkillVerificationError,
  type Client,
  type Server,
} from '@mcpc/client';
import type { LoadedSkill, SkillEntry, SkillFile } from '@mcpc/client/types';
import type {
  SkillDirectoryView,
  SkillEntryView,
  SkillListing,
  SkillLoadRequest,
  SkillRead,
  SkillStep,
  SkillView,
} from '../contract/api.js';
import { ApiError, isRecord, need } from './http.js';

/**
 * The skills loaded through the page, per server connection (a reconnect makes a new `Server`, so what was
 * loaded from the old one is gone with it), keyed by the skill's URI: file reads are verified against the
 * entry each was loaded from.
 */
const loaded = new WeakMap<Server, Map<string, LoadedSkill>>();

function serverOf(client: Client): Server {
  const server = client.servers[0];
  if (server === undefined) throw new ApiError(409, 'not_open', 'the server is not open');
  return server;
}

/** The entry's `resources` set as one string: what an approval in the page is bound to. */
export function approvalOf(entry: Pick<SkillEntry, 'uri' | 'resources'>): string {
  const set =
    entry.resources === 'dynamic'
      ? 'dynamic'
      : [...entry.resources]
          .map((f) => [f.uri, f.digest, f.size])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return `sha256:${createHash('sha256')
    .update(JSON.stringify([entry.uri, set]))
    .digest('hex')}`;
}

function view(entry: SkillEntry): SkillView {
  const { problem } = entry;
  return {
    server: entry.server,
    uri: entry.uri,
    name: entry.name,
    label: entry.label,
    description: entry.description,
    frontmatter: entry.frontmatter,
    resources: entry.resources === 'dynamic' ? 'dynamic' : [...entry.resources],
    fileCount: entry.fileCount,
    totalSize: entry.totalSize,
    ...(problem !== undefined && { problem: { code: problem.code, reason: problem.reason, message: problem.message } }),
  };
}

/** A typed refusal as an API error: its status, its code and reason (the client's words). Anything else as is. */
function answerOf(error: unknown): unknown {
  const say = (status: number, e: { code: string; message: string }, reason: string) =>
    new ApiError(status, e.code, e.message, reason);
  if (error instanceof SkillEntryError) return say(422, error, error.reason);
  if (error instanceof SkillApprovalError) return say(403, error, 'not-approved');
  if (error instanceof NotFoundError) return say(404, error, 'not-found');
  if (error instanceof CapabilityError) return say(409, error, 'not-declared');
  if (error instanceof AmbiguousNameError) return say(409, error, 'ambiguous');
  return error;
}

async function typed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw answerOf(error);
  }
}

/** `GET …/skills`: the whole listing; a server that did not declare the extension is asked nothing. */
export async function listSkills(client: Client): Promise<SkillListing> {
  const server = serverOf(client);
  try {
    const skills = await server.listSkills();
    return { declared: true, directoryRead: server.skillsExtension?.directoryRead === true, skills: skills.map(view) };
  } catch (error) {
    if (error instanceof CapabilityError) return { declared: false, directoryRead: false, skills: [] };
    throw answerOf(error);
  }
}

/** `GET …/skill?uri=`: the current entry (`skills/get`), with what the approver must see. */
export async function getSkill(client: Client, uri: string): Promise<SkillEntryView> {
  need(uri !== '', '"uri" (the skill\'s SKILL.md URI) is required');
  const entry = await typed(() => serverOf(client).getSkill(uri));
  const nested =
    entry.resources === 'dynamic'
      ? []
      : entry.resources.filter((f) => f.uri !== entry.uri && /(^|\/)SKILL\.md$/.test(f.path)).map((f) => f.uri);
  return { ...view(entry), approval: approvalOf(entry), allowedTools: entry.frontmatter['allowed-tools'], nested };
}

export function loadBody(body: unknown): SkillLoadRequest {
  need(isRecord(body) && typeof body.uri === 'string', '"uri" (a string) is required');
  need(
    typeof body.approval === 'string' && body.approval !== '',
    '"approval" is required: the entry\'s approval string, sent once the user approved what the page showed',
  );
  return { uri: body.uri, approval: body.approval, ...(body.allowDynamic === true && { allowDynamic: true }) };
}

/**
 * `POST …/skills/load`: the entry fetched again and held to what the user approved (a changed set is a 409),
 * then loaded by the client: `SKILL.md` read, size, digest and frontmatter checked. A refusal by verification
 * is an answer with its steps; a refusal before any read (entry, approval) is an error answer.
 */
export async function loadSkill(client: Client, request: SkillLoadRequest): Promise<SkillRead> {
  const server = serverOf(client);
  const entry = await typed(() => server.getSkill(request.uri));
  if (approvalOf(entry) !== request.approval)
    throw new ApiError(
      409,
      'skill_changed',
      `the skill's files changed since it was shown for approval: review its entry again`,
      'changed',
    );
  const approval: SkillStep = {
    step: 'approval',
    state: 'passed',
    detail: `approved in the page for this ${entry.resources === 'dynamic' ? 'dynamic skill' : `set of ${entry.fileCount} files`}`,
  };
  const file = entry.resources === 'dynamic' ? undefined : entry.resources.find((f) => f.uri === entry.uri);
  let skill: LoadedSkill;
  try {
    skill = await server.loadSkill(entry, { allowDynamic: request.allowDynamic === true });
  } catch (error) {
    if (!(error instanceof SkillVerificationError) && answerOf(error) !== error) throw answerOf(error);
    return refused(entry.uri, [approval, ...stepsOf(file, true, error)], error);
  }
  let held = loaded.get(server);
  if (held === undefined) loaded.set(server, (held = new Map()));
  held.set(skill.uri, skill);
  const fields = Object.keys(skill.frontmatter).join(', ');
  return {
    uri: skill.uri,
    outcome: 'verified',
    steps: [approval, ...stepsOf(file, true, undefined, fields)],
    text: skill.text,
  };
}

function heldSkill(client: Client, uri: unknown): LoadedSkill {
  need(typeof uri === 'string', '"skill" (the loaded skill\'s SKILL.md URI) is required');
  const skill = loaded.get(serverOf(client))?.get(uri);
  if (skill === undefined)
    throw new ApiError(
      409,
      'skill_not_loaded',
      `load ${uri} first: its files are read against the entry it was loaded from`,
    );
  return skill;
}

/** `POST …/skills/file`: one file of a loaded skill, by path or URI, verified against the entry it was loaded from. */
export async function readSkillFile(client: Client, body: unknown): Promise<SkillRead> {
  need(isRecord(body) && typeof body.path === 'string', '"path" (a string) is required');
  const skill = heldSkill(client, body.skill);
  const path = body.path;
  const uri = path.includes('://') ? path : (skill.resolve(path) ?? path);
  const file = skill.files === 'dynamic' ? undefined : skill.files.find((f) => f.uri === uri);
  try {
    const content = await skill.readFile(path);
    return {
      uri: content.uri,
      outcome: 'verified',
      steps: stepsOf(file, false),
      text: content.text,
      ...(content.mimeType !== undefined && { mimeType: content.mimeType }),
    };
  } catch (error) {
    if (!(error instanceof SkillVerificationError) && answerOf(error) !== error) throw answerOf(error);
    return refused(uri, stepsOf(file, false, error), error);
  }
}

/** `POST …/skills/directory`: a directory of a loaded skill: the manifest's answer, or the server's for a dynamic one. */
export async function readSkillDirectory(client: Client, body: unknown): Promise<SkillDirectoryView> {
  need(isRecord(body) && (body.path === undefined || typeof body.path === 'string'), '"path" must be a string');
  const skill = heldSkill(client, body.skill);
  const path = typeof body.path === 'string' ? body.path : '';
  const items = await typed(() => skill.listDirectory(path));
  return {
    path,
    source: skill.files === 'dynamic' ? 'server' : 'manifest',
    items: items.map((i) => ({ uri: i.uri, name: i.name, directory: i.directory })),
  };
}

function refused(uri: string, steps: SkillStep[], error: unknown): SkillRead {
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as { code?: unknown }).code;
  const reason = (e as { reason?: unknown }).reason;
  return {
    uri,
    outcome: 'refused',
    steps,
    error: {
      code: typeof code === 'string' ? code : 'ERROR',
      reason: typeof reason === 'string' ? reason : 'read',
      message: e.message,
    },
  };
}

const ORDER = ['listed', 'read', 'size', 'digest', 'frontmatter'] as const;
type CheckStep = (typeof ORDER)[number];

/**
 * The checks of one read, in the order the client makes them: the file is in the held manifest, it is read,
 * its size then its digest match the manifest, and (a `SKILL.md` being loaded) its frontmatter matches the
 * entry's. A failure marks its step and skips the rest; `file` undefined is a dynamic skill (no manifest).
 */
export function stepsOf(
  file: SkillFile | undefined,
  isSkillMd: boolean,
  error?: unknown,
  fields = 'name, description',
): SkillStep[] {
  const reason = error instanceof SkillVerificationError ? error.reason : error === undefined ? undefined : 'read';
  const failedAt: CheckStep | undefined =
    reason === undefined
      ? undefined
      : reason === 'unlisted'
        ? 'listed'
        : reason === 'size' || reason === 'digest' || reason === 'frontmatter'
          ? reason
          : 'read';
  const detail = error instanceof SkillVerificationError ? error.detail : error instanceof Error ? error.message : '';
  const passed: Record<CheckStep, string> = {
    listed: file === undefined ? 'dynamic skill: no manifest, a file within its root' : "in the held entry's manifest",
    read: 'resources/read on the skill’s own server',
    size: file === undefined ? 'no manifest size to compare (dynamic)' : `${file.size} bytes, as the entry says`,
    digest: file === undefined ? 'no manifest digest to compare (dynamic)' : `${file.digest} matches`,
    frontmatter: `the file's frontmatter equals the entry's, field by field (${fields})`,
  };
  const steps: SkillStep[] = [];
  let failed = false;
  for (const step of ORDER) {
    if (step === 'frontmatter' && !isSkillMd) continue;
    if (failed) steps.push({ step, state: 'skipped', detail: 'not reached' });
    else if (step === failedAt) {
      failed = true;
      steps.push({ step, state: 'failed', detail });
    } else if (file === undefined && (step === 'size' || step === 'digest'))
      steps.push({ step, state: 'skipped', detail: passed[step] });
    else steps.push({ step, state: 'passed', detail: passed[step] });
  }
  return steps;
}
