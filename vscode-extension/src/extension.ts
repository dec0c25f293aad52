// The tclint VS Code extension: starts the tclint language server (`python -m tclint.server`)
// for Python files, restarts it when its settings or the Python interpreter change, and
// shows the number of findings in the active editor in the status bar.

import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
    CloseAction,
    ErrorAction,
    Executable,
    LanguageClient,
    LanguageClientOptions,
    RevealOutputChannelOn,
    State,
} from 'vscode-languageclient/node';
import { checkExecutable, checkInterpreter, PreflightResult } from './preflight';
import { getInterpreterDetails, onDidChangeInterpreter } from './python';
import { buildServerCommand, DOCUMENT_SELECTOR, formatCommandLine } from './serverCommand';
import {
    CONFIRM_COMMANDS,
    confirmArguments,
    FolderInfo,
    NotificationLevel,
    resolveSettings,
    SECTION,
    ServerSettingsPayload,
    shouldNotify,
    TclintSettings,
    toServerSettings,
} from './settings';
import { FindingsStatusBar } from './statusBar';

const SERVER_ID = 'tclint';
const SERVER_NAME = 'tclint';
const MIN_PYTHON = [3, 10];
const RESTART_DELAY_MS = 300;
/** After this many crashes within CRASH_WINDOW_MS, the server is not restarted automatically. */
const MAX_CRASHES = 4;
const CRASH_WINDOW_MS = 3 * 60 * 1000;

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;
let statusBar: FindingsStatusBar | undefined;
let extensionRoot = '';

/** Settings sent to the running server: per folder URI, and the global ones. */
let folderSettings = new Map<string, TclintSettings>();
let globalSettings: TclintSettings | undefined;
/** Set while we stop the client ourselves, so that its Stopped state is not shown as a failure. */
let stopping = false;
let startFailed = false;
/** Times of recent unexpected server exits. */
let crashes: number[] = [];

let restartQueue: Promise<void> = Promise.resolve();
let restartTimer: NodeJS.Timeout | undefined;

function folderInfo(folder: vscode.WorkspaceFolder): FolderInfo {
    return { uri: folder.uri.toString(), fsPath: folder.uri.fsPath, name: folder.name };
}

function reader(scope?: vscode.Uri) {
    const config = vscode.workspace.getConfiguration(SECTION, scope ?? null);
    return (key: string) => config.inspect(key);
}

/** Problems found in the settings while resolving them; reported once the settings are known. */
let settingProblems: string[] = [];

function logProblems(problems: string[]): void {
    settingProblems.push(...problems);
}

async function computeSettings(): Promise<{ rootInterpreter: { command?: string[]; version?: string } }> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const infos = folders.map(folderInfo);
    const trusted = vscode.workspace.isTrusted;
    const next = new Map<string, TclintSettings>();
    let rootInterpreter: { command?: string[]; version?: string } = {};
    for (const [i, folder] of folders.entries()) {
        const interpreter = await getInterpreterDetails(folder.uri);
        if (i === 0) {
            rootInterpreter = interpreter;
        }
        const resolved = resolveSettings(reader(folder.uri), {
            folder: infos[i], folders: infos, trusted, interpreter: interpreter.command,
        });
        logProblems(resolved.problems);
        next.set(folder.uri.toString(), resolved.settings);
    }
    if (folders.length === 0) {
        rootInterpreter = await getInterpreterDetails();
    }
    const global = resolveSettings(reader(), { folders: infos, trusted, interpreter: rootInterpreter.command });
    if (folders.length === 0) {
        logProblems(global.problems);
    }
    folderSettings = next;
    globalSettings = global.settings;
    return { rootInterpreter };
}

/** The settings that apply to a document or scope URI: its folder's; without a scope (or outside
 * every folder), the first folder's (the one the server was started for), else the global ones. */
function settingsFor(uri: vscode.Uri | string | undefined): TclintSettings | undefined {
    if (uri) {
        let parsed = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
        if (parsed.scheme === 'vscode-notebook-cell') {
            // A cell belongs to no folder for VS Code; its notebook's file does.
            parsed = parsed.with({ scheme: 'file', fragment: '' });
        }
        const folder = vscode.workspace.getWorkspaceFolder(parsed);
        const found = folder ? folderSettings.get(folder.uri.toString()) : undefined;
        if (found) {
            return found;
        }
        const direct = folderSettings.get(parsed.toString());
        if (direct) {
            return direct;
        }
    }
    return rootSettings() ?? globalSettings;
}

function rootSettings(): TclintSettings | undefined {
    const root = vscode.workspace.workspaceFolders?.[0];
    return root ? folderSettings.get(root.uri.toString()) : undefined;
}

function notificationSetting(): NotificationLevel {
    return globalSettings?.showNotifications ?? 'onError';
}

async function notify(level: 'error' | 'warning' | 'info', message: string): Promise<void> {
    if (level === 'error') {
        output?.error(message);
    } else if (level === 'warning') {
        output?.warn(message);
    } else {
        output?.info(message);
    }
    if (!shouldNotify(notificationSetting(), level)) {
        return;
    }
    const show = level === 'error' ? vscode.window.showErrorMessage
        : level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const choice = await show(`tclint: ${message}`, 'Show Output');
    if (choice === 'Show Output') {
        output?.show();
    }
}

/** Answer for `workspace/configuration` item `section` ("tclint" or "tclint.<key>"). */
function configurationFor(section: string, scopeUri: string | undefined): unknown {
    const settings = settingsFor(scopeUri);
    if (!settings) {
        return null;
    }
    const payload = toServerSettings(settings);
    if (section === SECTION) {
        return payload;
    }
    const key = section.slice(SECTION.length + 1) as keyof ServerSettingsPayload;
    return payload[key] ?? null;
}

function isOurSection(section: string | undefined): section is string {
    return section === SECTION || (section?.startsWith(`${SECTION}.`) ?? false);
}

function bundledLibsDir(): string | undefined {
    const dir = path.join(extensionRoot, 'bundled', 'libs');
    return fs.existsSync(path.join(dir, 'tclint')) ? dir : undefined;
}

function versionTooOld(version: string | undefined): boolean {
    if (!version) {
        return false;
    }
    const [major, minor] = version.split('.').map((n) => parseInt(n, 10));
    return major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1]);
}

async function startClient(): Promise<void> {
    statusBar?.setState('starting');
    startFailed = false;
    settingProblems = [];
    const { rootInterpreter } = await computeSettings();
    const startSettings = rootSettings() ?? globalSettings!;
    if (settingProblems.length > 0) {
        void notify('warning', `invalid settings: ${[...new Set(settingProblems)].join('; ')}`);
    }

    const cmd = buildServerCommand({
        settings: startSettings,
        pythonExtensionInterpreter: rootInterpreter.command,
        workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
        bundledLibsDir: bundledLibsDir(),
        pythonPath: process.env.PYTHONPATH,
        folder: startSettings.cwd || undefined,
        neutralDir: extensionRoot || undefined,
    });
    for (const w of cmd.warnings) {
        void notify('warning', w);
    }
    if (!vscode.workspace.isTrusted) {
        output?.info('Restricted Mode: tclint.path and tclint.interpreter are read from user settings only.');
    }
    if (cmd.source === 'pythonExtension' && versionTooOld(rootInterpreter.version)) {
        void notify('warning', `the selected interpreter is Python ${rootInterpreter.version}; tclint needs `
            + `Python ${MIN_PYTHON.join('.')} or newer. Select another interpreter or set tclint.interpreter.`);
    }
    output?.info(`Server command (${cmd.source}): ${formatCommandLine(cmd)}`);
    const env = { ...process.env, ...cmd.env };
    const cwd = cmd.cwd && fs.existsSync(cmd.cwd) ? cmd.cwd : undefined;
    if (cwd) {
        output?.info(`Server working directory: ${cwd}`);
    }
    const preflight: PreflightResult = cmd.interpreter
        ? await checkInterpreter(cmd.interpreter, { cwd, env })
        : checkExecutable(cmd.command, cwd);
    if (!preflight.ok) {
        startFailed = true;
        statusBar?.setState('failed');
        const pip = (...args: string[]) => cmd.interpreter
            ? formatCommandLine({ command: cmd.interpreter[0], args: [...cmd.interpreter.slice(1), '-m', 'pip', 'install', ...args] })
            : '';
        const fix = preflight.reason === 'missingModule' && cmd.interpreter
            ? `Install it with \`${pip('torch-tclint')}\`, `
              + 'or point tclint.interpreter / tclint.path at an environment that has it.'
            : preflight.reason === 'cannotLint' && cmd.interpreter
                ? `Reinstall it with \`${pip('--force-reinstall', 'torch-tclint')}\`.`
                : 'Check tclint.interpreter / tclint.path, or select another interpreter.';
        void notify('error', `cannot start the language server: ${preflight.detail}. ${fix}`);
        return;
    }

    const serverOptions: Executable = {
        command: cmd.command,
        args: cmd.args,
        options: {
            cwd,
            env,
        },
    };

    const clientOptions: LanguageClientOptions = {
        documentSelector: DOCUMENT_SELECTOR,
        outputChannel: output,
        traceOutputChannel: output,
        revealOutputChannelOn: RevealOutputChannelOn.Never,
        diagnosticCollectionName: SERVER_ID,
        // One failed initialize is reported by us, not retried in a loop.
        initializationFailedHandler: () => false,
        errorHandler: {
            error: (_error, _message, count) => ({
                action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
                handled: true,
            }),
            closed: () => {
                if (stopping) {
                    return { action: CloseAction.DoNotRestart, handled: true };
                }
                const now = Date.now();
                crashes = crashes.filter((t) => now - t < CRASH_WINDOW_MS);
                crashes.push(now);
                if (crashes.length <= MAX_CRASHES) {
                    output?.warn(`The server exited; restarting it (${crashes.length}/${MAX_CRASHES}).`);
                    return { action: CloseAction.Restart, handled: true };
                }
                void notify('error', `the language server exited ${crashes.length} times in 3 minutes and is not `
                    + 'restarted again. See the output, then run "tclint: Restart Server".');
                return { action: CloseAction.DoNotRestart, handled: true };
            },
        },
        // `settings`: the settings of the folder the server runs for (what tclint.server reads);
        // `workspaceSettings`: one entry per workspace folder; `globalSettings`: without a folder.
        initializationOptions: {
            settings: toServerSettings(startSettings),
            workspaceSettings: Array.from(folderSettings.values()).map(toServerSettings),
            globalSettings: globalSettings ? toServerSettings(globalSettings) : undefined,
        },
        middleware: {
            // The server's commands become VS Code commands through the client; the confirm
            // commands get the active document (palette) or the clicked resource (menus).
            executeCommand: async (command, args, next) => {
                if (!CONFIRM_COMMANDS.includes(command)) {
                    return next(command, args);
                }
                if (!vscode.workspace.isTrusted) {
                    void notify('error', 'confirming graph breaks runs the workspace\'s code: trust the workspace first.');
                    return undefined;
                }
                const active = vscode.window.activeTextEditor?.document;
                const activeUri = active && active.languageId === 'python' ? active.uri.toString() : undefined;
                const commandArgs = confirmArguments(command, args, activeUri);
                if (command === 'tclint.confirmFile' && commandArgs.length === 0) {
                    void notify('error', 'open a Python file to confirm its graph breaks.');
                    return undefined;
                }
                if (command === 'tclint.confirmFile' && active && active.uri.toString() === commandArgs[0] && active.isDirty) {
                    void notify('warning', 'the examples run the saved file: save it to see Dynamo\'s verdict on your edits.');
                }
                output?.info(`${command} ${commandArgs.join(' ')}`);
                return next(command, commandArgs);
            },
            workspace: {
                configuration: async (params, token, next) => {
                    const results: unknown[] = new Array(params.items.length).fill(null);
                    const others: number[] = [];
                    params.items.forEach((item, i) => {
                        if (isOurSection(item.section)) {
                            results[i] = configurationFor(item.section, item.scopeUri);
                        } else {
                            others.push(i);
                        }
                    });
                    if (others.length > 0) {
                        const answer = await next({ items: others.map((i) => params.items[i]) }, token);
                        if (!Array.isArray(answer)) {
                            return answer;
                        }
                        others.forEach((index, j) => {
                            results[index] = answer[j];
                        });
                    }
                    return results;
                },
            },
        },
    };

    const newClient = new LanguageClient(SERVER_ID, SERVER_NAME, serverOptions, clientOptions);
    newClient.onDidChangeState((e) => {
        if (newClient !== client) {
            return;
        }
        if (e.newState === State.Running) {
            statusBar?.setState('running');
        } else if (e.newState === State.Starting) {
            statusBar?.setState('starting');
        } else if (e.newState === State.Stopped) {
            statusBar?.setState(stopping ? 'stopped' : 'failed');
        }
    });
    client = newClient;
    try {
        await newClient.start();
        output?.info(`Server started (tclint.lintOnChange: ${startSettings.lintOnChange}).`);
        statusBar?.setState('running');
    } catch (err) {
        startFailed = true;
        statusBar?.setState('failed');
        const detail = err instanceof Error ? err.message : String(err);
        void notify('error', `the language server did not start (${formatCommandLine(cmd)}): ${detail}. `
            + 'Its own error is in the tclint output.');
    }
}

async function stopClient(): Promise<void> {
    const old = client;
    if (!old) {
        return;
    }
    stopping = true;
    try {
        // A client that never got running rejects stop(); dispose() is what releases it.
        await old.dispose(2000);
    } catch (err) {
        if (!startFailed) {
            output?.warn(`Stopping the server: ${err instanceof Error ? err.message : String(err)}`);
        }
    } finally {
        stopping = false;
        if (client === old) {
            client = undefined;
        }
    }
}

/** Restarts the server; calls are queued so that two restarts never overlap. */
function restart(reason: string): Promise<void> {
    restartQueue = restartQueue.then(async () => {
        output?.info(`Restarting the server: ${reason}`);
        await stopClient();
        await startClient();
    }).catch((err) => {
        output?.error(`Restart failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        statusBar?.setState('failed');
    });
    return restartQueue;
}

/** Restarts after a short pause, so that a burst of setting changes restarts once. */
function scheduleRestart(reason: string): void {
    if (restartTimer) {
        clearTimeout(restartTimer);
    }
    restartTimer = setTimeout(() => {
        restartTimer = undefined;
        void restart(reason);
    }, RESTART_DELAY_MS);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    extensionRoot = context.extensionPath;
    output = vscode.window.createOutputChannel('tclint', { log: true });
    statusBar = new FindingsStatusBar();
    context.subscriptions.push(output, statusBar);
    output.info(`tclint extension ${context.extension.packageJSON.version ?? ''} activated`);

    context.subscriptions.push(
        vscode.commands.registerCommand('tclint.restart', async () => {
            if (restartTimer) {
                clearTimeout(restartTimer);
                restartTimer = undefined;
            }
            crashes = [];
            await restart('tclint: Restart Server');
            if (!startFailed) {
                void notify('info', 'language server restarted.');
            }
        }),
        vscode.commands.registerCommand('tclint.showOutput', () => output?.show()),
        vscode.workspace.onDidChangeConfiguration((e) => {
            if (e.affectsConfiguration(SECTION)) {
                scheduleRestart('tclint settings changed');
            }
        }),
        vscode.workspace.onDidGrantWorkspaceTrust(() => scheduleRestart('workspace trusted')),
        vscode.workspace.onDidChangeWorkspaceFolders(() => scheduleRestart('workspace folders changed')),
    );

    const interpreterWatch = await onDidChangeInterpreter(() => scheduleRestart('Python interpreter changed'));
    if (interpreterWatch) {
        context.subscriptions.push(interpreterWatch);
    }

    await restart('extension activated');
}

export async function deactivate(): Promise<void> {
    if (restartTimer) {
        clearTimeout(restartTimer);
        restartTimer = undefined;
    }
    await restartQueue;
    await stopClient();
}
