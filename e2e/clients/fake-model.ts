/**
 * A scripted model server on 127.0.0.1 for real-client tests. It speaks just enough of each
 * vendor's API for a harness to run one agent turn: the model asks for the next scripted tool
 * call until every call has a result, then answers with plain text. It keeps every request body,
 * so a test can check what reached the model (a denial reason, a nudge, a file's content).
 *
 * Stateless per request: the number of tool results already in the conversation says which
 * scripted call comes next, so a harness that retries or forks a request gets the same answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCall {
  /** The tool's name as the harness offers it (`Bash`, `shell`, `run_shell_command`, …). */
  name: string;
  input: Record<string, unknown>;
}

export interface FakeModel {
  readonly url: string;
  /** Every request body received, parsed, in order. */
  readonly requests: { path: string; body: unknown }[];
  /** The tool results the model was given, as text, in order. */
  toolResults(): string[];
  /** Everything the model was sent, as one string (to search for a nudge or a secret). */
  transcript(): string;
  close(): Promise<void>;
}

export interface Dialect {
  /** Whether this request path is the model call this dialect answers. */
  handles(path: string): boolean;
  /** How many tool results the conversation in `body` holds. */
  resultsIn(body: unknown): number;
  /** The tool results in `body`, as text. */
  resultTexts(body: unknown): string[];
  /** Writes the answer: the tool call, or a final text when `call` is null (`body`: the request). */
  respond(res: http.ServerResponse, call: ToolCall | null, turn: number, body: unknown): void;
}

const MAX_REQUESTS = 200;

export async function startFakeModel(dialect: Dialect, script: ToolCall[]): Promise<FakeModel> {
  const requests: { path: string; body: unknown }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      let body: unknown = null;
      try {
        body = chunks.length === 0 ? null : JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = Buffer.concat(chunks).toString('utf8');
      }
      requests.push({ path, body });
      // Bounded: a client stuck in a loop gets errors, never an endless conversation.
      if (requests.length > MAX_REQUESTS || req.method !== 'POST' || !dialect.handles(path)) {
        res.writeHead(requests.length > MAX_REQUESTS ? 429 : 404, { 'content-type': 'application/json' });
        res.end('{"error":{"type":"not_found","message":"fake model: not scripted"}}');
        return;
      }
      const n = dialect.resultsIn(body);
      dialect.respond(res, n < script.length ? (script[n] as ToolCall) : null, n, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    toolResults() {
      const last = [...requests].reverse().find((r) => dialect.handles(r.path) && r.body !== null);
      return last === undefined ? [] : dialect.resultTexts(last.body);
    },
    transcript: () => requests.map((r) => JSON.stringify(r.body)).join('\n'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- Anthropic Messages API (Claude Code) ------------------------------------------------------

type Block = { type?: string; content?: unknown; text?: string };
type Msg = { role?: string; content?: unknown };

function blocks(body: unknown): Block[] {
  const msgs = (body as { messages?: Msg[] } | null)?.messages;
  if (!Array.isArray(msgs)) return [];
  return msgs.flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []));
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b: Block) => (typeof b.text === 'string' ? b.text : '')).join('');
  return '';
}

function sse(res: http.ServerResponse, events: [string, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

export const anthropic: Dialect = {
  handles: (path) => path.startsWith('/v1/messages') && !path.includes('count_tokens'),
  resultsIn: (body) => blocks(body).filter((b) => b.type === 'tool_result').length,
  resultTexts: (body) => blocks(body).filter((b) => b.type === 'tool_result').map((b) => text(b.content)),
  respond(res, call, turn) {
    const id = `msg_fake_${turn}`;
    const start = {
      type: 'message_start',
      message: {
        id, type: 'message', role: 'assistant', model: 'claude-fake', content: [],
        stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 },
      },
    };
    const block =
      call === null
        ? [
            ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
            ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } }],
          ]
        : [
            ['content_block_start', {
              type: 'content_block_start', index: 0,
              content_block: { type: 'tool_use', id: `toolu_fake_${turn}`, name: call.name, input: {} },
            }],
            ['content_block_delta', {
              type: 'content_block_delta', index: 0,
              delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
            }],
          ];
    sse(res, [
      ['message_start', start],
      ...(block as [string, unknown][]),
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', {
        type: 'message_delta',
        delta: { stop_reason: call === null ? 'end_turn' : 'tool_use', stop_sequence: null },
        usage: { output_tokens: 5 },
      }],
      ['message_stop', { type: 'message_stop' }],
    ]);
  },
};

// ---- OpenAI Responses API (Codex, Copilot CLI with a bring-your-own-key provider) ---------------

type Item = { type?: string; output?: unknown };

function items(body: unknown): Item[] {
  const input = (body as { input?: unknown } | null)?.input;
  return Array.isArray(input) ? (input as Item[]) : [];
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((p: { text?: unknown }) => (typeof p.text === 'string' ? p.text : '')).join('');
  return JSON.stringify(output ?? '');
}

function sseData(res: http.ServerResponse, events: { type: string }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

export const openaiResponses: Dialect = {
  handles: (path) => path.endsWith('/responses'),
  resultsIn: (body) => items(body).filter((i) => i.type === 'function_call_output').length,
  resultTexts: (body) => items(body).filter((i) => i.type === 'function_call_output').map((i) => outputText(i.output)),
  respond(res, call, turn) {
    const id = `resp_fake_${turn}`;
    const item =
      call === null
        ? {
            type: 'message', id: `msg_fake_${turn}`, role: 'assistant', status: 'completed',
            content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
          }
        : {
            type: 'function_call', id: `fc_fake_${turn}`, call_id: `call_fake_${turn}`, status: 'completed',
            name: call.name, arguments: JSON.stringify(call.input),
          };
    const usage = {
      input_tokens: 10, input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15,
    };
    const response = { id, object: 'response', created_at: 0, status: 'in_progress', model: 'fake', output: [] as unknown[] };
    sseData(res, [
      { type: 'response.created', response } as { type: string },
      { type: 'response.output_item.added', output_index: 0, item } as { type: string },
      { type: 'response.output_item.done', output_index: 0, item } as { type: string },
      { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage } } as { type: string },
    ]);
  },
};

// ---- Gemini API (Gemini CLI, Qwen Code's Gemini mode) -------------------------------------------

type Part = { functionResponse?: { name?: string; response?: unknown }; text?: string };

function parts(body: unknown): Part[] {
  const contents = (body as { contents?: { parts?: Part[] }[] } | null)?.contents;
  return Array.isArray(contents) ? contents.flatMap((c) => (Array.isArray(c.parts) ? c.parts : [])) : [];
}

export const gemini: Dialect = {
  handles: (path) => path.includes(':streamGenerateContent') || path.includes(':generateContent'),
  resultsIn: (body) => parts(body).filter((p) => p.functionResponse !== undefined).length,
  resultTexts: (body) =>
    parts(body)
      .filter((p) => p.functionResponse !== undefined)
      .map((p) => JSON.stringify(p.functionResponse?.response ?? '')),
  respond(res, call) {
    const part = call === null ? { text: 'Done.' } : { functionCall: { name: call.name, args: call.input } };
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'gemini-fake',
    };
    // The streaming call takes server-sent events; the plain call (the client's own side
    // questions, such as "who speaks next") takes one JSON object.
    if (res.req.url?.includes(':streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(chunk)}\n\n`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(chunk));
    }
  },
};

// ---- OpenAI Chat Completions API (Qwen Code's OpenAI-compatible provider) ----------------------

type ChatMsg = { role?: string; content?: unknown };

function chatMessages(body: unknown): ChatMsg[] {
  const msgs = (body as { messages?: ChatMsg[] } | null)?.messages;
  return Array.isArray(msgs) ? msgs : [];
}

export const openaiChat: Dialect = {
  handles: (path) => path.endsWith('/chat/completions'),
  resultsIn: (body) => chatMessages(body).filter((m) => m.role === 'tool').length,
  resultTexts: (body) => chatMessages(body).filter((m) => m.role === 'tool').map((m) => outputText(m.content)),
  respond(res, call, turn, body) {
    const id = `chatcmpl_fake_${turn}`;
    const toolCall =
      call === null ? undefined : { index: 0, id: `call_fake_${turn}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } };
    const finish = call === null ? 'stop' : 'tool_calls';
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    // Streaming when the request asks for it (the client's side questions may not).
    if ((body as { stream?: unknown } | null)?.stream !== true) {
      const message = call === null ? { role: 'assistant', content: 'Done.' } : { role: 'assistant', content: null, tool_calls: [toolCall] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'chat.completion', created: 0, model: 'fake', choices: [{ index: 0, message, finish_reason: finish }], usage }));
      return;
    }
    const base = { id, object: 'chat.completion.chunk', created: 0, model: 'fake' };
    const delta = call === null ? { role: 'assistant', content: 'Done.' } : { role: 'assistant', content: null, tool_calls: [toolCall] };
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\n`);
    res.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  },
};
