// Optional use of the Python extension (ms-python.python): the interpreter selected for a
// resource, and an event when it changes. The extension is not a dependency: without it,
// these functions return nothing and tclint falls back to its settings or `python3`.

import * as vscode from 'vscode';

const PYTHON_EXTENSION_ID = 'ms-python.python';

interface EnvironmentPath {
    id: string;
    path: string;
}

interface ResolvedEnvironment {
    executable?: { uri?: vscode.Uri };
    version?: { major?: number; minor?: number; micro?: number };
}

/** The parts of the Python extension's API that tclint uses (both the current and the older API). */
interface PythonExtensionApi {
    environments?: {
        getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
        resolveEnvironment(env: EnvironmentPath | string): Promise<ResolvedEnvironment | undefined>;
        onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
    };
    settings?: {
        getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
        onDidChangeExecutionDetails?: vscode.Event<unknown>;
    };
}

export interface InterpreterDetails {
    /** Executable and leading arguments; undefined when the Python extension has none. */
    command?: string[];
    /** `major.minor` when known. */
    version?: string;
}

const ACTIVATION_TIMEOUT_MS = 15000;

let apiPromise: Promise<PythonExtensionApi | undefined> | undefined;

async function getApi(): Promise<PythonExtensionApi | undefined> {
    const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
    if (!extension) {
        return undefined;
    }
    if (!apiPromise) {
        const activation = Promise.resolve(extension.isActive ? extension.exports : extension.activate());
        const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ACTIVATION_TIMEOUT_MS));
        apiPromise = Promise.race([activation, timeout]).catch(() => undefined);
        // Forget a timed-out or failed activation so that a later call tries again.
        void apiPromise.then((api) => {
            if (!api) {
                apiPromise = undefined;
            }
        });
    }
    return apiPromise;
}

/** The interpreter the Python extension selected for `resource`, if the extension is installed. */
export async function getInterpreterDetails(resource?: vscode.Uri): Promise<InterpreterDetails> {
    let api: PythonExtensionApi | undefined;
    try {
        api = await getApi();
    } catch {
        return {};
    }
    if (!api) {
        return {};
    }
    try {
        if (api.environments) {
            const active = api.environments.getActiveEnvironmentPath(resource);
            const env = await api.environments.resolveEnvironment(active);
            const executable = env?.executable?.uri?.fsPath;
            if (executable) {
                const v = env?.version;
                const version = v && v.major !== undefined && v.minor !== undefined ? `${v.major}.${v.minor}` : undefined;
                return { command: [executable], version };
            }
        }
        if (api.settings) {
            const command = api.settings.getExecutionDetails(resource).execCommand;
            if (command && command.length > 0) {
                return { command };
            }
        }
    } catch {
        // An API shape we do not know: behave as if the extension were absent.
    }
    return {};
}

/** Calls `listener` when the selected interpreter changes. */
export async function onDidChangeInterpreter(listener: () => void): Promise<vscode.Disposable | undefined> {
    const api = await getApi().catch(() => undefined);
    if (api?.environments?.onDidChangeActiveEnvironmentPath) {
        return api.environments.onDidChangeActiveEnvironmentPath(() => listener());
    }
    if (api?.settings?.onDidChangeExecutionDetails) {
        return api.settings.onDidChangeExecutionDetails(() => listener());
    }
    return undefined;
}
