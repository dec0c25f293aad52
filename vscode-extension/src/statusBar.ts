// The status bar item: tclint findings in the active editor, and the server's state.

import * as vscode from 'vscode';
import { countFindings, formatStatus, ServerState } from './findings';

const PYTHON_LANGUAGE = 'python';

export class FindingsStatusBar implements vscode.Disposable {
    private readonly item: vscode.StatusBarItem;
    private readonly disposables: vscode.Disposable[] = [];
    private state: ServerState = 'starting';

    constructor() {
        this.item = vscode.window.createStatusBarItem('tclint.findings', vscode.StatusBarAlignment.Left, 10);
        this.item.name = 'tclint';
        this.disposables.push(
            this.item,
            vscode.languages.onDidChangeDiagnostics((e) => {
                const active = vscode.window.activeTextEditor?.document.uri.toString();
                if (active && e.uris.some((uri) => uri.toString() === active)) {
                    this.update();
                }
            }),
            vscode.window.onDidChangeActiveTextEditor(() => this.update()),
            vscode.workspace.onDidOpenTextDocument(() => this.update()),
        );
        this.update();
    }

    setState(state: ServerState): void {
        this.state = state;
        this.update();
    }

    update(): void {
        const editor = vscode.window.activeTextEditor;
        const isPython = editor?.document.languageId === PYTHON_LANGUAGE;
        if (!isPython && this.state !== 'failed') {
            this.item.hide();
            return;
        }
        const counts = isPython && editor ? countFindings(vscode.languages.getDiagnostics(editor.document.uri)) : undefined;
        const status = formatStatus(counts, this.state);
        this.item.text = status.text;
        this.item.tooltip = status.tooltip;
        this.item.command = this.state === 'failed' || this.state === 'stopped'
            ? 'tclint.showOutput'
            : 'workbench.actions.view.problems';
        this.item.backgroundColor = this.state === 'failed'
            ? new vscode.ThemeColor('statusBarItem.errorBackground')
            : undefined;
        this.item.show();
    }

    dispose(): void {
        for (const d of this.disposables) {
            d.dispose();
        }
    }
}
