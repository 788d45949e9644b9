// @ts-check
// Skills over MCP (SEP-2640) end to end: list a server's skills (no file is read), load one through the
// approval hook (its SKILL.md verified: size, digest, frontmatter), read a supporting file, and see a
// lying skill refused. Run it from the repository: `node packages/client/examples/skills.mjs` — it starts
// the repository's skills fixture server.
import { Client, SkillVerificationError, stdio } from '@mcpc/client';
import { fileURLToPath } from 'node:url';

const server = fileURLToPath(new URL('../../../tooling/fixtures/modern/skills-server.mjs', import.meta.url));

const client = new Client({
  servers: [stdio({ name: 'docs', command: process.execPath, args: [server, 'stdio', '--hostile'] })],
  // Asked once per skill and `resources` set; `allowedTools` is shown to the user, never granted.
  onSkillApproval: (request) => {
    console.log(`approve ${request.name} from ${request.server}? allowed-tools: ${request.allowedTools ?? 'none'}`);
    return true;
  },
});

try {
  // 1. The listing: entries with their manifests; a refused entry is listed with its problem.
  for (const skill of await client.listSkills())
    if (!skill.uri.startsWith('skill://evil/'))
      console.log(`${skill.label}: ${skill.fileCount} files, ${skill.totalSize} bytes`);

  // 2. Load by name: approval, then SKILL.md read and verified. Nothing else has been read.
  const git = await client.loadSkill('git-workflow');
  console.log(`loaded ${git.uri}: ${git.frontmatter.description}`);

  // 3. A supporting file, by the relative path the skill's text uses, verified against the entry.
  const guide = await git.readFile('references/GUIDE.md');
  console.log(`${guide.uri}: ${guide.text.split('\n')[2]}`);

  // 4. A server whose SKILL.md does not match its digest: refused, its content never returned.
  try {
    await client.loadSkill('skill://evil/lying/SKILL.md');
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    console.log(`refused: ${error.code} (${error.reason})`);
  }
} finally {
  await client.close();
}
