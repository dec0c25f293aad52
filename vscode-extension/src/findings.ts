// Pure logic over tclint findings (no `vscode` import): counts by severity and the status bar
// text. Which findings show and at what severity is the server's business (select, ignore,
// severity, Dynamo's verdicts): the extension shows what it publishes.
//
// Severities use VS Code's numbering (vscode.DiagnosticSeverity): Error 0, Warning 1,
// Information 2, Hint 3.

export const SOURCE = 'tclint';

export const SEVERITY_ERROR = 0;
export const SEVERITY_WARNING = 1;
export const SEVERITY_INFORMATION = 2;
export const SEVERITY_HINT = 3;

export interface FindingLike {
    source?: string;
    severity: number;
    code?: unknown;
}

export interface FindingCounts {
    errors: number;
    warnings: number;
    infos: number;
    hints: number;
}

export function isTclintFinding(d: { source?: string }): boolean {
    return typeof d.source === 'string' && d.source.toLowerCase().startsWith(SOURCE);
}

/** Counts the tclint findings among `diagnostics` (all sources) by severity. */
export function countFindings(diagnostics: readonly FindingLike[]): FindingCounts {
    const counts: FindingCounts = { errors: 0, warnings: 0, infos: 0, hints: 0 };
    for (const d of diagnostics) {
        if (!isTclintFinding(d)) {
            continue;
        }
        switch (d.severity) {
            case SEVERITY_ERROR:
                counts.errors++;
                break;
            case SEVERITY_WARNING:
                counts.warnings++;
                break;
            case SEVERITY_INFORMATION:
                counts.infos++;
                break;
            default:
                counts.hints++;
        }
    }
    return counts;
}

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusText {
    text: string;
    tooltip: string;
}

function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Status bar text and tooltip for the active editor's findings and the server's state. */
export function formatStatus(counts: FindingCounts | undefined, state: ServerState): StatusText {
    if (state === 'starting') {
        return { text: '$(sync~spin) tclint', tooltip: 'tclint: starting the language server' };
    }
    if (state === 'failed') {
        return { text: '$(error) tclint', tooltip: 'tclint: the language server is not running; click for its output' };
    }
    if (state === 'stopped') {
        return { text: '$(circle-slash) tclint', tooltip: 'tclint: the language server is stopped' };
    }
    if (!counts) {
        return { text: '$(check) tclint', tooltip: 'tclint: no Python file active' };
    }
    const total = counts.errors + counts.warnings + counts.infos + counts.hints;
    if (total === 0) {
        return { text: '$(check) tclint', tooltip: 'tclint: no graph breaks found in this file' };
    }
    const icon = counts.errors > 0 ? '$(error)' : counts.warnings > 0 ? '$(warning)' : '$(info)';
    const parts: string[] = [];
    if (counts.errors) {
        parts.push(plural(counts.errors, 'error'));
    }
    if (counts.warnings) {
        parts.push(plural(counts.warnings, 'warning'));
    }
    if (counts.infos) {
        parts.push(plural(counts.infos, 'info'));
    }
    if (counts.hints) {
        parts.push(plural(counts.hints, 'hint'));
    }
    return {
        text: `${icon} tclint: ${total}`,
        tooltip: `tclint: ${plural(total, 'finding')} in this file (${parts.join(', ')}); click for the Problems panel`,
    };
}
