// How the tclint language server is started. Pure module (no `vscode` import).

import * as path from 'path';
import { ImportStrategy, isInsideFolder } from './settings';

export const SERVER_MODULE = 'tclint.server';

/** The documents the server gets: Python files, unsaved buffers, and the Python cells of
 * Jupyter notebooks (the server syncs whole notebooks; this also brings hover and code
 * actions to their cells). */
export const DOCUMENT_SELECTOR = [
    { scheme: 'file', language: 'python' },
    { scheme: 'untitled', language: 'python' },
    { notebook: 'jupyter-notebook', language: 'python' },
];

export interface ServerCommandInput {
    /** The resolved settings of the folder the server is started for. */
    settings: {
        path: readonly string[];
        interpreter: readonly string[];
        args: readonly string[];
        importStrategy: ImportStrategy;
        workspaceTrusted?: boolean;
    };
    /** Interpreter command from the Python extension's API (executable + leading args), if any. */
    pythonExtensionInterpreter?: readonly string[];
    /** Folder paths of the workspace: used to refuse an in-workspace interpreter when untrusted. */
    workspaceFolders?: readonly string[];
    /** Folder that holds a bundled copy of tclint (for importStrategy useBundled), if it exists. */
    bundledLibsDir?: string;
    /** process.platform; decides the default interpreter name. */
    platform?: string;
    /** Current PYTHONPATH, so the bundled folder is prepended to it. */
    pythonPath?: string;
    /** The folder the settings belong to: a relative program path is relative to it. */
    folder?: string;
    /** Where the server runs: a folder that holds no Python modules (the extension's own). */
    neutralDir?: string;
}

export type CommandSource = 'path' | 'interpreter' | 'pythonExtension' | 'default';

export interface ServerCommand {
    command: string;
    args: string[];
    /** Extra environment variables for the server process. */
    env: Record<string, string>;
    /** Working directory of the server and of its preflight: never the workspace, because
     * Python puts the working directory first on `sys.path` for `-m` and `-c`, and a
     * workspace `argparse.py` or `tclint/__init__.py` would run on start. */
    cwd?: string;
    /** Which setting or fallback chose the program. */
    source: CommandSource;
    /** The interpreter (executable + leading args) when the server runs as `-m tclint.server`. */
    interpreter?: string[];
    /** Things the user should know (fallbacks taken); logged, and shown per showNotifications. */
    warnings: string[];
}

export function defaultInterpreter(platform: string = process.platform): string {
    return platform === 'win32' ? 'python' : 'python3';
}

/** True for a lone `tclint` executable (`/venv/bin/tclint`, `tclint.exe`), to which `server` is appended. */
export function isBareTclintExecutable(entries: readonly string[]): boolean {
    if (entries.length !== 1) {
        return false;
    }
    const base = path.basename(entries[0].replace(/\\/g, '/')).toLowerCase();
    return base === 'tclint' || base === 'tclint.exe' || base === 'tclint.cmd';
}

/** A program path relative to `folder` made absolute, since the server does not run there;
 * a bare name (looked up on PATH) stays as it is. */
export function absoluteProgram(program: string, folder: string | undefined): string {
    if (!folder || !/[\\/]/.test(program) || path.isAbsolute(program) || path.win32.isAbsolute(program)) {
        return program;
    }
    return path.resolve(folder, program);
}

/**
 * Builds the server's command line:
 *  1. `tclint.path` wins: it is the whole command (a lone `tclint` executable gets `server`);
 *  2. else `<interpreter> -m tclint.server`, with the interpreter from `tclint.interpreter`,
 *     else the Python extension's, else `python3` (`python` on Windows);
 *  3. `tclint.args` are appended in both cases.
 * It runs in `neutralDir`, so relative program paths are resolved against `folder` first.
 */
export function buildServerCommand(input: ServerCommandInput): ServerCommand {
    const { settings } = input;
    const warnings: string[] = [];
    const env: Record<string, string> = {};
    const extraArgs = [...settings.args];
    const pathEntries = settings.path.filter((p) => p.length > 0);

    if (pathEntries.length > 0) {
        const [program, ...rest] = pathEntries;
        const args = isBareTclintExecutable(pathEntries) ? ['server'] : rest;
        if (settings.importStrategy === 'useBundled') {
            warnings.push('tclint.importStrategy "useBundled" has no effect when tclint.path is set.');
        }
        const command = absoluteProgram(program, input.folder);
        return { command, args: [...args, ...extraArgs], env, cwd: input.neutralDir, source: 'path', warnings };
    }

    let interpreter: string[] = settings.interpreter.filter((p) => p.length > 0);
    let source: CommandSource = 'interpreter';
    if (interpreter.length === 0) {
        const fromExtension = (input.pythonExtensionInterpreter ?? []).filter((p) => p.length > 0);
        const untrusted = settings.workspaceTrusted === false;
        const inWorkspace = fromExtension.length > 0
            && (input.workspaceFolders ?? []).some((folder) => isInsideFolder(fromExtension[0], folder));
        if (fromExtension.length > 0 && untrusted && inWorkspace) {
            warnings.push(`The selected interpreter ${fromExtension[0]} is inside this untrusted workspace; `
                + `using ${defaultInterpreter(input.platform)} from PATH instead. Trust the workspace to use it.`);
        } else if (fromExtension.length > 0) {
            interpreter = fromExtension;
            source = 'pythonExtension';
        }
    }
    if (interpreter.length === 0) {
        interpreter = [defaultInterpreter(input.platform)];
        source = 'default';
    }

    if (settings.importStrategy === 'useBundled') {
        if (input.bundledLibsDir) {
            const sep = (input.platform ?? process.platform) === 'win32' ? ';' : ':';
            env.PYTHONPATH = input.pythonPath ? `${input.bundledLibsDir}${sep}${input.pythonPath}` : input.bundledLibsDir;
        } else {
            warnings.push('tclint.importStrategy is "useBundled", but this build of the extension bundles no tclint; '
                + `using the tclint installed for ${interpreter[0]} (as with "fromEnvironment").`);
        }
    }
    env.TCLINT_IMPORT_STRATEGY = settings.importStrategy;

    interpreter = [absoluteProgram(interpreter[0], input.folder), ...interpreter.slice(1)];
    const [command, ...interpreterArgs] = interpreter;
    return {
        command,
        args: [...interpreterArgs, '-m', SERVER_MODULE, ...extraArgs],
        env,
        cwd: input.neutralDir,
        source,
        interpreter,
        warnings,
    };
}

/** The command line as one string, for the output channel. */
export function formatCommandLine(cmd: { command: string; args: readonly string[] }): string {
    const quote = (s: string) => (/^[\w@%+=:,./\\-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`);
    return [cmd.command, ...cmd.args].map(quote).join(' ');
}
