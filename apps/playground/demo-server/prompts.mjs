// The demo's prompt table: `greeting`, with completion on its arguments.
import { completable } from '@modelcontextprotocol/server';
import { z } from 'zod';

const NAMES = ['Ada', 'Alan', 'Barbara', 'Grace', 'Katherine', 'Linus', 'Margaret', 'Tim'];
const STYLES = ['formal', 'casual', 'pirate'];

/** Registers every prompt on `server`. */
export function registerPrompts(server) {
  server.registerPrompt(
    'greeting',
    {
      title: 'Greeting',
      description: 'A greeting in a chosen style',
      argsSchema: {
        name: completable(z.string().describe('Who to greet'), (value) =>
          NAMES.filter((n) => n.toLowerCase().startsWith(String(value ?? '').toLowerCase())),
        ),
        style: completable(z.string().describe('formal, casual or pirate'), (value) =>
          STYLES.filter((s) => s.startsWith(String(value ?? '').toLowerCase())),
        ),
      },
    },
    ({ name, style }) => {
      const line =
        style === 'pirate'
          ? `Ahoy, ${name}! Welcome aboard, matey.`
          : style === 'casual'
            ? `Hey ${name}, good to see you!`
            : `Good day, ${name}. It is a pleasure to make your acquaintance.`;
      return {
        description: `A ${style} greeting for ${name}`,
        messages: [{ role: 'user', content: { type: 'text', text: `Greet ${name} like this: ${line}` } }],
      };
    },
  );
}
