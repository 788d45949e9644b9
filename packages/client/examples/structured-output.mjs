// @ts-check
// Calls a tool that returns structured content, checked against the tool's outputSchema in strict
// mode. Run it as is: `node examples/structured-output.mjs` (it starts the reference server with npx).
import { Client, StructuredContentError, ToolSchemaError, stdio } from '@mcpc/client';

const client = new Client({
  servers: [stdio({ name: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] })],
  // 'warn' (the default) logs a result that breaks its tool's outputSchema and returns it; 'strict' throws.
  validateStructuredContent: 'strict',
});

try {
  const tool = await client.findTool('get-structured-content');
  console.log(`outputSchema: ${JSON.stringify(tool?.outputSchema)}`);

  const result = await client.callTool('get-structured-content', { location: 'New York' });
  console.log('valid structuredContent:', result.structuredContent);

  // A call can choose its own mode: 'warn', 'strict' or 'off'.
  const relaxed = await client.callTool(
    'get-structured-content',
    { location: 'Chicago' },
    { validateStructuredContent: 'warn' },
  );
  console.log('checked, never thrown:', relaxed.structuredContent);
} catch (error) {
  if (error instanceof StructuredContentError) {
    // reason is 'mismatch' (errors say where) or 'missing'; error.result is the result as received.
    for (const issue of error.errors)
      console.error(`${issue.instancePath || '(root)'} ${issue.message} (${issue.keyword} at ${issue.schemaPath})`);
  } else if (error instanceof ToolSchemaError) {
    // The tool's schema declares a $schema dialect this client cannot read: the call was not sent.
    console.error(error.message);
  } else {
    throw error;
  }
} finally {
  await client.close();
}
