// Checks, before the language client starts, that the server can start at all: that the
// interpreter exists and can import tclint.server. A missing module otherwise shows up only
// as a crash loop of the client. Pure Node (no `vscode` import).

import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { SERVER_MODULE } from './serverCommand';

export type PreflightResult =
    | { ok: true }
    | { ok: false; reason: 'notFound' | 'missingModule' | 'failed'; detail: string };

/** Exit status of the probe when the module cannot be found. */
const MISSING = 3;

// `-c` puts the working directory first on sys.path: drop it before anything is imported,
// or a workspace `tclint/__init__.py` runs when find_spec imports the parent package.
const PROBE = [
    'import sys',
    "sys.path[:] = [p for p in sys.path if p != '']",
    'import importlib.util',
    'try:',
    `    found = importlib.util.find_spec(${JSON.stringify(SERVER_MODULE)}) is not None`,
    'except Exception:',
    '    found = False',
    `sys.exit(0 if found else ${MISSING})`,
].join('\n');

/** Whether `interpreter` (executable + leading args) can import `tclint.server`. Give the
 * server's own `cwd` (a neutral folder, never the workspace). */
export function checkInterpreter(interpreter: readonly string[], options: {
    cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number;
} = {}): Promise<PreflightResult> {
    const [command, ...args] = interpreter;
    return new Promise((resolve) => {
        execFile(command, [...args, '-c', PROBE], {
            cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 15000, windowsHide: true,
        }, (error, _stdout, stderr) => {
            if (!error) {
                resolve({ ok: true });
                return;
            }
            const err = error as Error & { code?: string | number; killed?: boolean };
            if (err.code === 'ENOENT' || err.code === 'EACCES') {
                resolve({ ok: false, reason: 'notFound', detail: `${command}: ${err.code === 'ENOENT' ? 'not found' : 'not executable'}` });
            } else if (err.code === MISSING) {
                resolve({ ok: false, reason: 'missingModule', detail: `${command} cannot import ${SERVER_MODULE}` });
            } else {
                const why = err.killed ? 'timed out' : String(stderr || err.message).trim().split('\n').slice(-1)[0];
                resolve({ ok: false, reason: 'failed', detail: `${command}: ${why}` });
            }
        });
    });
}

/** For a `tclint.path` command: an absolute or relative path must exist (a bare name is looked up on PATH). */
export function checkExecutable(command: string, cwd?: string): PreflightResult {
    if (!command.includes('/') && !command.includes('\\')) {
        return { ok: true };
    }
    const resolved = path.resolve(cwd ?? process.cwd(), command);
    return fs.existsSync(resolved) ? { ok: true } : { ok: false, reason: 'notFound', detail: `${resolved}: not found` };
}
