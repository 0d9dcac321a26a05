/**
 * The plugin file Buckler writes for OpenCode, which has no command hooks: a small ES module in
 * one of OpenCode's plugin folders whose `tool.execute.before` and `tool.execute.after` hooks
 * run the hook command (`… buckler.cjs --driver opencode`) with the event as JSON on stdin and
 * read its reply from stdout (the wire format: src/adapters/opencode/types.ts).
 *
 * Before a tool runs the plugin fails closed: a deny, and also a hook command that cannot
 * start, exits non-zero, answers something that is not one JSON object or does not answer
 * within BEFORE_TIMEOUT_MS, makes it throw, which aborts that one tool call (OpenCode 1.18.33
 * runs plugin hooks without a try/catch). After a tool runs it never throws.
 *
 * The file is Buckler's whole: its first line is PLUGIN_HEADER and a `buckler-plugin:` line
 * holds the command as JSON. Any other file at that path is the person's, and Buckler leaves it
 * alone (parsePlugin refuses it).
 */
import { InstallerError } from '../errors.ts';
import type { JsonObject } from '../json-text.ts';

export const PLUGIN_HEADER = "// Buckler's OpenCode plugin: hands every tool call to Buckler's hook command before and after it runs.";
const MARKER = '// buckler-plugin: ';
/** The plugin's own deadline for an answer before a tool runs (Buckler's hook answers within 5 s). */
export const BEFORE_TIMEOUT_MS = 10_000;
export const AFTER_TIMEOUT_MS = 10_000;

/**
 * The value a plugin file stands for, `{hooks: {command, current}}`: the command it runs, and
 * whether its text is exactly what Buckler writes today. `{}` is no plugin file.
 */
export interface PluginHooks extends JsonObject {
  command: string;
  current: boolean;
}

/** JSON that is also safe on a `//` comment line: U+2028 and U+2029 end a line in JavaScript. */
function js(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** The harnesses that run this plugin: OpenCode, and Kilo Code (an OpenCode fork). */
export type PluginHarness = 'opencode' | 'kilo-code';

function body(command: string, harness: PluginHarness): string {
  return `${PLUGIN_HEADER}
// Written by \`buckler hooks merge --harness ${harness}\`; \`buckler hooks strip --harness ${harness}\`
// removes it. Buckler rewrites this file whole: keep your own plugins in other files.
${MARKER}${js({ command })}
import { spawn } from "node:child_process";

const COMMAND = ${js(command)};
const BEFORE_TIMEOUT_MS = ${BEFORE_TIMEOUT_MS};
const AFTER_TIMEOUT_MS = ${AFTER_TIMEOUT_MS};
const MAX_REPLY = 1 << 20;

// Runs the hook command with one event on stdin: {reply} (an object), or {error} saying why not.
function ask(event, ms) {
  return new Promise((resolve) => {
    let done = false;
    let out = "";
    let err = "";
    let child;
    let timer;
    const finish = (r) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const stop = (why) => {
      try { child.kill("SIGKILL"); } catch {}
      finish({ error: why });
    };
    try {
      child = spawn("/bin/sh", ["-c", COMMAND], { stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      finish({ error: "the hook command could not start (" + String(e && e.message || e) + ")" });
      return;
    }
    timer = setTimeout(() => stop("no answer within " + ms / 1000 + " s"), ms);
    child.on("error", (e) => finish({ error: "the hook command could not start (" + String(e && e.message || e) + ")" }));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d) => {
      out += d;
      if (out.length > MAX_REPLY) stop("the answer was too long");
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (d) => {
      if (err.length < 2000) err += d;
    });
    child.on("close", (code, signal) => {
      if (code !== 0) {
        const said = err.trim().slice(0, 500);
        return finish({ error: "the hook command exited with " + (code === null ? signal : code) + (said ? ": " + said : "") });
      }
      const text = out.trim();
      if (text === "") return finish({ reply: {} });
      try {
        const v = JSON.parse(text);
        if (v !== null && typeof v === "object" && !Array.isArray(v)) return finish({ reply: v });
      } catch {}
      finish({ error: "the hook command answered something that is not one JSON object" });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(event));
  });
}

const text = (v) => (typeof v === "string" && v.trim() !== "" ? v : undefined);

export const BucklerPlugin = async ({ directory, worktree }) => {
  // Context a check before a call asked to add to that call's result (a nudge), by call id.
  const pending = new Map();
  return {
    "tool.execute.before": async (input, output) => {
      let r;
      try {
        r = await ask({ hook_event_name: "tool.execute.before", tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: output.args, directory, worktree }, BEFORE_TIMEOUT_MS);
      } catch (e) {
        r = { error: String(e && e.message || e) };
      }
      if (r.error !== undefined) {
        throw new Error("Buckler could not check this " + input.tool + " call (" + r.error + "), so it was blocked to be safe. Do not retry it in another form; tell the user what happened.");
      }
      if (r.reply.decision === "deny") throw new Error(text(r.reply.reason) ?? "Blocked by Buckler policy.");
      const context = text(r.reply.context);
      if (context !== undefined) {
        if (pending.size > 1000) pending.clear();
        pending.set(input.callID, context);
      }
    },
    "tool.execute.after": async (input, output) => {
      const notes = [];
      const before = pending.get(input.callID);
      pending.delete(input.callID);
      if (before !== undefined) notes.push(before);
      try {
        const exit = output && output.metadata && output.metadata.exit;
        const event = { hook_event_name: "tool.execute.after", tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: input.args, directory, worktree };
        if (typeof exit === "number") event.exit = exit;
        const r = await ask(event, AFTER_TIMEOUT_MS);
        const context = r.reply && text(r.reply.context);
        if (context !== undefined) notes.push(context);
      } catch {}
      if (notes.length > 0 && output && typeof output.output === "string") output.output += "\\n\\n" + notes.join("\\n\\n");
    },
  };
};
`;
}

/** The plugin file's bytes for `value` (a value without a command is never rendered: strip deletes the file). */
function render(value: JsonObject, harness: PluginHarness): Buffer {
  const command = (value.hooks as PluginHooks | undefined)?.command;
  if (typeof command !== 'string') throw new Error('renderPlugin: no command');
  return Buffer.from(body(command, harness), 'utf8');
}

/**
 * What a plugin file at Buckler's path says: `{hooks: {command, current}}` when Buckler wrote it (its
 * first line is PLUGIN_HEADER and its marker line holds the command), else InstallerError
 * 'malformed': the file is the person's and is left alone.
 */
function parse(file: string, bytes: Buffer, harness: PluginHarness): JsonObject {
  const text = bytes.toString('utf8');
  const foreign = (): InstallerError =>
    new InstallerError(
      'malformed',
      file,
      "is not a plugin file Buckler wrote; left unchanged (Buckler writes its plugin only to this path: move this file to another name in the same folder and run the command again)",
    );
  if (!text.startsWith(`${PLUGIN_HEADER}\n`)) throw foreign();
  const line = text.split('\n').find((l) => l.startsWith(MARKER));
  if (line === undefined) throw foreign();
  let command: unknown;
  try {
    command = (JSON.parse(line.slice(MARKER.length)) as { command?: unknown }).command;
  } catch {
    throw foreign();
  }
  if (typeof command !== 'string' || command === '') throw foreign();
  return { hooks: { command, current: text === body(command, harness) } };
}

/** The plugin file's codec for one harness (the file names the harness in its comment). */
export function pluginCodec(harness: PluginHarness): { parse(file: string, bytes: Buffer): JsonObject; render(value: JsonObject): Buffer } {
  return { parse: (file, bytes) => parse(file, bytes, harness), render: (value) => render(value, harness) };
}

/** OpenCode's. */
export const renderPlugin = (value: JsonObject): Buffer => render(value, 'opencode');
export const parsePlugin = (file: string, bytes: Buffer): JsonObject => parse(file, bytes, 'opencode');
