// Resolution of the tclint.* settings for one workspace folder.
//
// Pure module: it must not import `vscode`, so that `node --test` can exercise it. The
// extension hands it a `SettingsReader` backed by `WorkspaceConfiguration.inspect`.

import * as os from 'os';
import * as path from 'path';

export const SECTION = 'tclint';

export type ImportStrategy = 'useBundled' | 'fromEnvironment';
export type NotificationLevel = 'off' | 'onError' | 'onWarning' | 'always';
export type SeverityName = 'error' | 'warning' | 'information' | 'hint';

export const IMPORT_STRATEGIES: readonly ImportStrategy[] = ['useBundled', 'fromEnvironment'];
export const NOTIFICATION_LEVELS: readonly NotificationLevel[] = ['off', 'onError', 'onWarning', 'always'];
export const SEVERITY_NAMES: readonly SeverityName[] = ['error', 'warning', 'information', 'hint'];
export type ConfirmDevice = 'cpu' | 'cuda' | 'auto';
export const CONFIRM_DEVICES: readonly ConfirmDevice[] = ['cpu', 'cuda', 'auto'];

/** Settings that start a program: only user-level values count in an untrusted workspace. */
export const RESTRICTED_KEYS: readonly string[] = ['path', 'interpreter', 'confirm.python'];

/** `tclint.confirm.*`: running the project's examples under Dynamo (the server's `confirm` table). */
export interface ConfirmSettings {
    /** Not a setting: whether the workspace is trusted. The server runs no example when false. */
    enabled: boolean;
    /** Interpreter that runs the examples (torch installed); empty: `[tool.tclint.confirm] python`, else the server's. */
    python: string;
    /** Unset: `[tool.tclint.confirm] device` (cpu by default). */
    device?: ConfirmDevice;
    /** Seconds per example case; unset: `[tool.tclint.confirm] timeout` (120 by default). */
    timeout?: number;
    /** Confirm the saved file on every save. */
    onSave: boolean;
    /** Keep predictions that ran without a break (as hints); false hides them. */
    showRefuted: boolean;
}

/** The resolved settings of one workspace folder, as sent to the server. */
export interface TclintSettings {
    /** Folder URI as a string (`file:///...`); empty for the global settings. */
    workspace: string;
    /** Folder path on disk; the server's working directory for this folder. */
    cwd: string;
    interpreter: string[];
    path: string[];
    args: string[];
    importStrategy: ImportStrategy;
    severity: Record<string, SeverityName>;
    lintOnChange: boolean;
    showNotifications: NotificationLevel;
    select: string[];
    ignore: string[];
    /** Whether the workspace is trusted (the server must not run user code when false). */
    workspaceTrusted: boolean;
    confirm: ConfirmSettings;
}

/** What `WorkspaceConfiguration.inspect(key)` returns, narrowed to the fields used here. */
export interface InspectedValue<T> {
    defaultValue?: T;
    globalValue?: T;
    workspaceValue?: T;
    workspaceFolderValue?: T;
}

/** Reads one key of the `tclint` section, scoped to the folder being resolved. */
export type SettingsReader = (key: string) => InspectedValue<unknown> | undefined;

export interface FolderInfo {
    /** URI string of the folder. */
    uri: string;
    /** Path of the folder on disk. */
    fsPath: string;
    /** Folder name, for `${workspaceFolder:name}`. */
    name: string;
}

export interface ResolveContext {
    /** The folder being resolved; undefined for the global (no folder) settings. */
    folder?: FolderInfo;
    /** Every folder of the workspace, for `${workspaceFolder:name}`. */
    folders?: FolderInfo[];
    trusted: boolean;
    /** Interpreter command (executable + leading args) for `${interpreter}`. */
    interpreter?: string[];
    env?: Record<string, string | undefined>;
    homeDir?: string;
    cwd?: string;
}

export interface ResolvedSettings {
    settings: TclintSettings;
    /** Problems with the configured values (bad enum values, wrong types); shown in the output. */
    problems: string[];
}

/**
 * The value of `key`, most specific scope first. In an untrusted workspace the restricted keys
 * only take the user (global) value: a workspace cannot choose the program that VS Code runs.
 */
export function effectiveValue<T>(inspected: InspectedValue<T> | undefined, restricted: boolean): T | undefined {
    if (!inspected) {
        return undefined;
    }
    if (restricted) {
        return inspected.globalValue ?? inspected.defaultValue;
    }
    return inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue ?? inspected.defaultValue;
}

/** Substitutes `${workspaceFolder}`, `${workspaceFolder:name}`, `${userHome}`, `${cwd}`, `${env:NAME}`
 * and a leading `~`; an element that is exactly `${interpreter}` becomes the interpreter's elements. */
export function substituteVariables(values: readonly string[], ctx: Omit<ResolveContext, 'trusted'>): string[] {
    const home = ctx.homeDir ?? os.homedir();
    const env = ctx.env ?? process.env;
    const out: string[] = [];
    for (const value of values) {
        if (value === '${interpreter}') {
            out.push(...(ctx.interpreter ?? []));
            continue;
        }
        out.push(substituteOne(value, ctx, home, env));
    }
    return out;
}

function substituteOne(value: string, ctx: Omit<ResolveContext, 'trusted'>, home: string,
    env: Record<string, string | undefined>): string {
    let result = value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
        if (name === 'userHome') {
            return home;
        }
        if (name === 'workspaceFolder') {
            return ctx.folder?.fsPath ?? whole;
        }
        if (name === 'cwd') {
            return ctx.cwd ?? ctx.folder?.fsPath ?? process.cwd();
        }
        if (name === 'interpreter') {
            return ctx.interpreter && ctx.interpreter.length > 0 ? ctx.interpreter.join(' ') : whole;
        }
        if (name.startsWith('workspaceFolder:')) {
            const wanted = name.slice('workspaceFolder:'.length);
            const match = (ctx.folders ?? []).find((f) => f.name === wanted);
            return match ? match.fsPath : whole;
        }
        if (name.startsWith('env:')) {
            return env[name.slice('env:'.length)] ?? '';
        }
        return whole;
    });
    if (result === '~' || result.startsWith('~/') || result.startsWith('~' + path.sep)) {
        result = home + result.slice(1);
    }
    return result;
}

function stringArray(value: unknown, key: string, problems: string[]): string[] {
    if (value === undefined || value === null) {
        return [];
    }
    if (typeof value === 'string') {
        // A plain string is a common slip: accept it as a one-element list.
        return value.trim() ? [value] : [];
    }
    if (!Array.isArray(value)) {
        problems.push(`tclint.${key} must be an array of strings; ignored`);
        return [];
    }
    const out: string[] = [];
    for (const item of value) {
        if (typeof item === 'string') {
            out.push(item);
        } else {
            problems.push(`tclint.${key}: ${JSON.stringify(item)} is not a string; ignored`);
        }
    }
    return out;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T, key: string, problems: string[]): T {
    if (value === undefined || value === null) {
        return fallback;
    }
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) {
        return value as T;
    }
    problems.push(`tclint.${key} = ${JSON.stringify(value)}: accepted values are ${allowed.join(', ')}; using ${fallback}`);
    return fallback;
}

/** Upper-cases and trims codes, splits `"TC1, TC2"` entries, drops empty ones. */
export function normalizeCodes(codes: readonly string[]): string[] {
    return codes.flatMap((c) => c.split(/[\s,]+/)).map((c) => c.trim().toUpperCase()).filter((c) => c.length > 0);
}

export function normalizeSeverityMap(value: unknown, problems: string[]): Record<string, SeverityName> {
    const out: Record<string, SeverityName> = {};
    if (value === undefined || value === null) {
        return out;
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
        problems.push('tclint.severity must be an object of code or prefix -> severity; ignored');
        return out;
    }
    for (const [rawCode, rawLevel] of Object.entries(value as Record<string, unknown>)) {
        const code = rawCode.trim().toUpperCase();
        let level = typeof rawLevel === 'string' ? rawLevel.trim().toLowerCase() : rawLevel;
        if (level === 'info') {
            level = 'information';
        }
        if (!code) {
            continue;
        }
        if (typeof level === 'string' && (SEVERITY_NAMES as readonly string[]).includes(level)) {
            out[code] = level as SeverityName;
        } else {
            problems.push(`tclint.severity.${rawCode} = ${JSON.stringify(rawLevel)}: accepted values are ${SEVERITY_NAMES.join(', ')}; ignored`);
        }
    }
    return out;
}

/** Resolves the tclint settings of one folder (or the global ones when `ctx.folder` is undefined). */
export function resolveSettings(read: SettingsReader, ctx: ResolveContext): ResolvedSettings {
    const problems: string[] = [];
    const get = (key: string): unknown => effectiveValue(read(key), !ctx.trusted && RESTRICTED_KEYS.includes(key));

    const interpreter = substituteVariables(stringArray(get('interpreter'), 'interpreter', problems),
        { ...ctx, interpreter: [] });
    // `${interpreter}` in path/args means the interpreter that will be used: the setting if given,
    // else the one found by the caller (Python extension).
    const effectiveInterpreter = interpreter.length > 0 ? interpreter : ctx.interpreter ?? [];
    const subCtx = { ...ctx, interpreter: effectiveInterpreter };

    const settings: TclintSettings = {
        workspace: ctx.folder?.uri ?? '',
        cwd: ctx.folder?.fsPath ?? ctx.cwd ?? '',
        interpreter,
        path: substituteVariables(stringArray(get('path'), 'path', problems), subCtx),
        args: substituteVariables(stringArray(get('args'), 'args', problems), subCtx),
        importStrategy: oneOf(get('importStrategy'), IMPORT_STRATEGIES, 'fromEnvironment', 'importStrategy', problems),
        severity: normalizeSeverityMap(get('severity'), problems),
        lintOnChange: typeof get('lintOnChange') === 'boolean' ? (get('lintOnChange') as boolean) : true,
        showNotifications: oneOf(get('showNotifications'), NOTIFICATION_LEVELS, 'onError', 'showNotifications', problems),
        select: normalizeCodes(stringArray(get('select'), 'select', problems)),
        ignore: normalizeCodes(stringArray(get('ignore'), 'ignore', problems)),
        workspaceTrusted: ctx.trusted,
        confirm: { enabled: false, python: '', onSave: false, showRefuted: true },
    };
    settings.confirm = resolveConfirm(get, ctx, problems);
    const rawLint = get('lintOnChange');
    if (rawLint !== undefined && typeof rawLint !== 'boolean') {
        problems.push(`tclint.lintOnChange = ${JSON.stringify(rawLint)} must be true or false; using true`);
    }
    return { settings, problems };
}

function resolveConfirm(get: (key: string) => unknown, ctx: ResolveContext, problems: string[]): ConfirmSettings {
    const flag = (key: string, fallback: boolean): boolean => {
        const value = get(`confirm.${key}`);
        if (value === undefined || value === null) {
            return fallback;
        }
        if (typeof value !== 'boolean') {
            problems.push(`tclint.confirm.${key} = ${JSON.stringify(value)} must be true or false; using ${fallback}`);
            return fallback;
        }
        return value;
    };
    const confirm: ConfirmSettings = {
        // Running the examples runs the workspace's code: only in a trusted workspace.
        enabled: ctx.trusted,
        python: '',
        onSave: flag('onSave', false),
        showRefuted: flag('showRefuted', true),
    };
    const python = get('confirm.python');
    if (typeof python === 'string') {
        confirm.python = python.trim() ? substituteVariables([python.trim()], ctx)[0] : '';
    } else if (python !== undefined && python !== null) {
        problems.push('tclint.confirm.python must be a path; ignored');
    }
    const device = get('confirm.device');
    if (device !== undefined && device !== null && device !== '') {
        if (typeof device === 'string' && (CONFIRM_DEVICES as readonly string[]).includes(device)) {
            confirm.device = device as ConfirmDevice;
        } else {
            problems.push(`tclint.confirm.device = ${JSON.stringify(device)}: accepted values are ${CONFIRM_DEVICES.join(', ')}; ignored`);
        }
    }
    const timeout = get('confirm.timeout');
    if (timeout !== undefined && timeout !== null) {
        if (typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0) {
            confirm.timeout = timeout;
        } else {
            problems.push(`tclint.confirm.timeout = ${JSON.stringify(timeout)} must be a positive number of seconds; ignored`);
        }
    }
    return confirm;
}

/**
 * Arguments of the server commands `tclint.confirmFile` / `tclint.confirmWorkspace` as VS Code
 * invokes them: from the palette (none: the active editor's document for confirmFile), from the
 * explorer or an editor's context menu (a Uri), or programmatically (a URI string).
 */
export function confirmArguments(command: string, args: readonly unknown[], activeDocument?: string): unknown[] {
    const first = args[0];
    let uri: string | undefined;
    if (typeof first === 'string') {
        uri = first;
    } else if (first && typeof first === 'object' && typeof (first as { toString: unknown }).toString === 'function'
        && 'scheme' in (first as object)) {
        uri = String(first);
    }
    if (uri === undefined && command === 'tclint.confirmFile') {
        uri = activeDocument;
    }
    return uri === undefined ? [] : [uri];
}

export const CONFIRM_COMMANDS: readonly string[] = ['tclint.confirmFile', 'tclint.confirmWorkspace'];

/** Keys whose change means the server must restart (every tclint.* key does). */
export function affectsTclint(affects: (section: string) => boolean): boolean {
    return affects(SECTION);
}

/** Whether a message of `level` is shown as a notification under the `showNotifications` setting. */
export function shouldNotify(setting: NotificationLevel, level: 'error' | 'warning' | 'info'): boolean {
    switch (setting) {
        case 'off':
            return false;
        case 'onError':
            return level === 'error';
        case 'onWarning':
            return level === 'error' || level === 'warning';
        case 'always':
            return true;
    }
}

/** Whether `file` lies inside `folder` (both absolute paths). */
export function isInsideFolder(file: string, folder: string, pathApi: path.PlatformPath = path): boolean {
    const rel = pathApi.relative(pathApi.resolve(folder), pathApi.resolve(file));
    return rel === '' || (!rel.startsWith('..') && !pathApi.isAbsolute(rel));
}

/** The settings as the server reads them (`initializationOptions.settings`, `workspace/configuration`). */
export type ServerSettingsPayload = Omit<TclintSettings, 'severity' | 'select'> & {
    /** Levels as in `[tool.tclint] severity`: error, warning, info, hint. */
    severity: Record<string, 'error' | 'warning' | 'info' | 'hint'>;
    /** Omitted when empty: an empty `tclint.select` means "as configured", not "select nothing". */
    select?: string[];
};

/**
 * Converts resolved settings to what the server expects: `information` becomes `info` (the
 * level's name in tclint's configuration) and an empty `select` is left out.
 */
export function toServerSettings(settings: TclintSettings): ServerSettingsPayload {
    const { select, severity, ...rest } = settings;
    const payload: ServerSettingsPayload = { ...rest, severity: {} };
    for (const [code, level] of Object.entries(severity)) {
        payload.severity[code] = level === 'information' ? 'info' : level;
    }
    if (select.length > 0) {
        payload.select = [...select];
    }
    return payload;
}
