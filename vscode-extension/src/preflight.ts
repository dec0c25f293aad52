// Checks, before the language client starts, that the server can work at all: that the
// interpreter exists, can import tclint.server, and can lint a known break. A missing module
// otherwise shows up only as a crash loop of the client, and a broken install (a package
// missing from the wheel) as a server that silently shows nothing. Pure Node (no `vscode` import).

import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { SERVER_MODULE } from './serverCommand';

export type PreflightResult =
    | { ok: true }
    | { ok: false; reason: 'notFound' | 'missingModule' | 'cannotLint' | 'failed'; detail: string };

/** Exit statuses of the probe: the module cannot be found; it imports but cannot lint. */
const MISSING = 3;
const CANNOT_LINT = 4;

/** A break every working install finds (TC102). */
const KNOWN_BREAK = 'import torch\n@torch.compile\ndef f(x):\n    return x.sum().item()\n';

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
    'if not found:',
    `    sys.exit(${MISSING})`,
    'try:',
    '    import tclint.server.app',
    '    from tclint.analyzer.api import lint_source',
    `    codes = [d.code for d in lint_source(${JSON.stringify(KNOWN_BREAK)}, path="preflight.py")]`,
    '    why = None if "TC102" in codes else "it linted a known graph break and found nothing"',
    'except Exception as exc:',
    "    why = f'{type(exc).__name__}: {exc}'",
    'if why:',
    "    print(f'tclint cannot lint: {why}', file=sys.stderr)",
    `    sys.exit(${CANNOT_LINT})`,
].join('\n');

/** Whether `interpreter` (executable + leading args) can import `tclint.server` and lint. Give the
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
            } else if (err.code === CANNOT_LINT) {
                resolve({ ok: false, reason: 'cannotLint', detail: `${command}: ${String(stderr).trim().split('\n').slice(-1)[0]}` });
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
