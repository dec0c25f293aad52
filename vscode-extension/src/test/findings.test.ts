import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import {
    codeOf,
    countFindings,
    formatStatus,
    hasDynamoVerdict,
    isSelected,
    longestMatch,
    SEVERITY_ERROR,
    SEVERITY_HINT,
    SEVERITY_INFORMATION,
    SEVERITY_WARNING,
    severityFor,
} from '../findings';

test('codeOf handles every shape VS Code uses', () => {
    assert.equal(codeOf('TC101'), 'TC101');
    assert.equal(codeOf(101), '101');
    assert.equal(codeOf({ value: 'TC102', target: {} }), 'TC102');
    assert.equal(codeOf(undefined), undefined);
    assert.equal(codeOf({}), undefined);
});

test('longest prefix', () => {
    assert.equal(longestMatch('TC101', ['TC1', 'TC10', 'TC2']), 4);
    assert.equal(longestMatch('TC101', ['ALL']), 0);
    assert.equal(longestMatch('TC101', ['tc101']), 5);
    assert.equal(longestMatch('TC101', ['TC2']), -1);
});

test('severity overrides: exact code beats prefix', () => {
    const map = { TC1: 'error', TC102: 'hint', ALL: 'information' } as const;
    assert.equal(severityFor('TC101', map), SEVERITY_ERROR);
    assert.equal(severityFor('TC102', map), SEVERITY_HINT);
    assert.equal(severityFor('TC210', map), SEVERITY_INFORMATION);
    assert.equal(severityFor('TC210', { TC1: 'error' }), undefined);
    assert.equal(severityFor(undefined, map), undefined);
    assert.equal(severityFor('TC2', { TC2: 'warning' }), SEVERITY_WARNING);
});

test('select and ignore', () => {
    assert.equal(isSelected('TC101', [], []), true);
    assert.equal(isSelected('TC101', ['TC2'], []), false);
    assert.equal(isSelected('TC101', ['TC1'], ['TC101']), false);
    assert.equal(isSelected('TC101', ['TC101'], ['TC1']), true);
    assert.equal(isSelected('TC101', ['TC1'], ['TC1']), false, 'a tie goes to ignore');
    assert.equal(isSelected('TC101', ['ALL'], ['TC2']), true);
    assert.equal(isSelected('TC101', [], ['ALL']), false);
    assert.equal(isSelected(undefined, ['TC2'], ['ALL']), true, 'findings without a code are kept');
});

test('counts only tclint findings, by severity', () => {
    const counts = countFindings([
        { source: 'tclint', severity: SEVERITY_ERROR },
        { source: 'tclint', severity: SEVERITY_WARNING },
        { source: 'tclint', severity: SEVERITY_WARNING },
        { source: 'tclint', severity: SEVERITY_INFORMATION },
        { source: 'tclint', severity: SEVERITY_HINT },
        { source: 'Pylance', severity: SEVERITY_ERROR },
        { severity: SEVERITY_ERROR },
    ]);
    assert.deepEqual(counts, { errors: 1, warnings: 2, infos: 1, hints: 1 });
});

test('status text', () => {
    const none = { errors: 0, warnings: 0, infos: 0, hints: 0 };
    assert.equal(formatStatus(none, 'running').text, '$(check) tclint');
    const one = formatStatus({ ...none, warnings: 1 }, 'running');
    assert.equal(one.text, '$(warning) tclint: 1');
    assert.match(one.tooltip, /1 finding in this file \(1 warning\)/);
    const many = formatStatus({ errors: 2, warnings: 1, infos: 0, hints: 3 }, 'running');
    assert.equal(many.text, '$(error) tclint: 6');
    assert.match(many.tooltip, /6 findings in this file \(2 errors, 1 warning, 3 hints\)/);
    assert.equal(formatStatus({ ...none, infos: 2 }, 'running').text, '$(info) tclint: 2');
    assert.equal(formatStatus(undefined, 'running').text, '$(check) tclint');
    assert.equal(formatStatus(none, 'starting').text, '$(sync~spin) tclint');
    assert.equal(formatStatus(none, 'failed').text, '$(error) tclint');
    assert.equal(formatStatus(none, 'stopped').text, '$(circle-slash) tclint');
});

test('findings with Dynamo\'s verdict keep their severity', () => {
    assert.equal(hasDynamoVerdict({ code: 'TC102', confirmed: true }), true);
    assert.equal(hasDynamoVerdict({ code: 'TC102', confirmed: false }), true);
    assert.equal(hasDynamoVerdict({ code: 'TC102' }), false);
    assert.equal(hasDynamoVerdict(undefined), false);
    assert.equal(hasDynamoVerdict(null), false);
});
