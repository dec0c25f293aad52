// Pure logic over tclint findings (no `vscode` import): codes, severity overrides,
// select/ignore, and the status bar text.
//
// Severities use VS Code's numbering (vscode.DiagnosticSeverity): Error 0, Warning 1,
// Information 2, Hint 3.

import { SeverityName } from './settings';

export const SOURCE = 'tclint';

export const SEVERITY_ERROR = 0;
export const SEVERITY_WARNING = 1;
export const SEVERITY_INFORMATION = 2;
export const SEVERITY_HINT = 3;

const SEVERITY_NUMBERS: Record<SeverityName, number> = {
    error: SEVERITY_ERROR,
    warning: SEVERITY_WARNING,
    information: SEVERITY_INFORMATION,
    hint: SEVERITY_HINT,
};

export function severityNumber(name: SeverityName): number {
    return SEVERITY_NUMBERS[name];
}

/** A diagnostic's code as a string: VS Code gives `string | number | {value, target}`. */
export function codeOf(code: unknown): string | undefined {
    if (code === undefined || code === null) {
        return undefined;
    }
    if (typeof code === 'string' || typeof code === 'number') {
        return String(code);
    }
    if (typeof code === 'object' && 'value' in (code as object)) {
        const value = (code as { value: unknown }).value;
        return value === undefined || value === null ? undefined : String(value);
    }
    return undefined;
}

/** Length of the longest entry of `patterns` that is a prefix of `code` (`ALL` counts as 0); -1 if none. */
export function longestMatch(code: string, patterns: readonly string[]): number {
    const upper = code.toUpperCase();
    let best = -1;
    for (const raw of patterns) {
        const pattern = raw.trim().toUpperCase();
        if (pattern === 'ALL') {
            best = Math.max(best, 0);
        } else if (pattern && upper.startsWith(pattern)) {
            best = Math.max(best, pattern.length);
        }
    }
    return best;
}

/** The severity configured for `code` by the longest matching code or prefix, if any. */
export function severityFor(code: string | undefined, map: Readonly<Record<string, SeverityName>>): number | undefined {
    if (!code) {
        return undefined;
    }
    let bestLength = -1;
    let best: SeverityName | undefined;
    for (const [pattern, level] of Object.entries(map)) {
        const length = longestMatch(code, [pattern]);
        if (length > bestLength) {
            bestLength = length;
            best = level;
        }
    }
    return best === undefined ? undefined : severityNumber(best);
}

/**
 * Whether a finding with `code` is kept under `select`/`ignore` (as on the command line): an empty
 * select keeps everything; the more specific match wins and a tie goes to ignore. Findings without
 * a code are always kept.
 */
export function isSelected(code: string | undefined, select: readonly string[], ignore: readonly string[]): boolean {
    if (!code) {
        return true;
    }
    const selected = select.length === 0 ? 0 : longestMatch(code, select);
    if (selected < 0) {
        return false;
    }
    return selected > longestMatch(code, ignore);
}

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

/** Whether a finding carries Dynamo's verdict (`data.confirmed`, set by the confirm commands):
 * its severity (error when confirmed, hint when refuted) is then not overridden by tclint.severity. */
export function hasDynamoVerdict(data: unknown): boolean {
    return typeof data === 'object' && data !== null && typeof (data as { confirmed?: unknown }).confirmed === 'boolean';
}
