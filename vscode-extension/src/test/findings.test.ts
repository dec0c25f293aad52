import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import {
    countFindings,
    formatStatus,
    SEVERITY_ERROR,
    SEVERITY_HINT,
    SEVERITY_INFORMATION,
    SEVERITY_WARNING,
} from '../findings';

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
