import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import * as path from 'path';
import {
    confirmArguments,
    effectiveValue,
    FolderInfo,
    InspectedValue,
    isInsideFolder,
    normalizeSeverityMap,
    resolveSettings,
    shouldNotify,
    substituteVariables,
    toServerSettings,
} from '../settings';

const folder: FolderInfo = { uri: 'file:///work/proj', fsPath: '/work/proj', name: 'proj' };
const other: FolderInfo = { uri: 'file:///work/lib', fsPath: '/work/lib', name: 'lib' };

function readerOf(values: Record<string, InspectedValue<unknown>>) {
    return (key: string) => values[key];
}

test('defaults when nothing is set', () => {
    const { settings, problems } = resolveSettings(() => undefined, { folder, trusted: true, homeDir: '/home/u' });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, {
        workspace: 'file:///work/proj',
        cwd: '/work/proj',
        interpreter: [],
        path: [],
        args: [],
        importStrategy: 'fromEnvironment',
        severity: {},
        lintOnChange: true,
        showNotifications: 'onError',
        select: [],
        ignore: [],
        workspaceTrusted: true,
        confirm: { enabled: true, python: '', onSave: false, showRefuted: true },
    });
});

test('the most specific scope wins', () => {
    const inspected = { defaultValue: 'd', globalValue: 'g', workspaceValue: 'w', workspaceFolderValue: 'f' };
    assert.equal(effectiveValue(inspected, false), 'f');
    assert.equal(effectiveValue({ ...inspected, workspaceFolderValue: undefined }, false), 'w');
    assert.equal(effectiveValue({ defaultValue: 'd', globalValue: 'g' }, false), 'g');
    assert.equal(effectiveValue({ defaultValue: 'd' }, false), 'd');
    assert.equal(effectiveValue(undefined, false), undefined);
});

test('untrusted workspace: path and interpreter come from user settings only', () => {
    const read = readerOf({
        path: { defaultValue: [], workspaceValue: ['/evil/tclint'] },
        interpreter: { defaultValue: [], globalValue: ['/usr/bin/python3.12'], workspaceFolderValue: ['./.venv/bin/python'] },
        args: { defaultValue: [], workspaceValue: ['--log-level', 'debug'] },
    });
    const untrusted = resolveSettings(read, { folder, trusted: false, homeDir: '/home/u' }).settings;
    assert.deepEqual(untrusted.path, []);
    assert.deepEqual(untrusted.interpreter, ['/usr/bin/python3.12']);
    assert.deepEqual(untrusted.args, ['--log-level', 'debug']);
    assert.equal(untrusted.workspaceTrusted, false);

    const trusted = resolveSettings(read, { folder, trusted: true, homeDir: '/home/u' }).settings;
    assert.deepEqual(trusted.path, ['/evil/tclint']);
    assert.deepEqual(trusted.interpreter, ['./.venv/bin/python']);
});

test('variables are substituted', () => {
    const ctx = {
        folder, folders: [folder, other], homeDir: '/home/u', env: { TOOLS: '/opt/tools' }, interpreter: ['/usr/bin/python3', '-X', 'utf8'],
    };
    assert.deepEqual(
        substituteVariables(['${workspaceFolder}/.venv/bin/python', '${userHome}/x', '${workspaceFolder:lib}/y', '${env:TOOLS}/z', '~/w', '${unknown}'], ctx),
        ['/work/proj/.venv/bin/python', '/home/u/x', '/work/lib/y', '/opt/tools/z', '/home/u/w', '${unknown}'],
    );
    assert.deepEqual(substituteVariables(['${interpreter}', '-m', 'tclint', 'server'], ctx),
        ['/usr/bin/python3', '-X', 'utf8', '-m', 'tclint', 'server']);
    assert.deepEqual(substituteVariables(['--python=${interpreter}'], ctx), ['--python=/usr/bin/python3 -X utf8']);
    assert.deepEqual(substituteVariables(['${env:NOPE}x'], ctx), ['x']);
});

test('${interpreter} in path prefers tclint.interpreter over the Python extension', () => {
    const read = readerOf({
        interpreter: { workspaceValue: ['${workspaceFolder}/.venv/bin/python'] },
        path: { workspaceValue: ['${interpreter}', '-m', 'tclint', 'server'] },
    });
    const s = resolveSettings(read, { folder, trusted: true, interpreter: ['/usr/bin/python3'] }).settings;
    assert.deepEqual(s.interpreter, ['/work/proj/.venv/bin/python']);
    assert.deepEqual(s.path, ['/work/proj/.venv/bin/python', '-m', 'tclint', 'server']);

    const fromExtension = resolveSettings(readerOf({ path: { workspaceValue: ['${interpreter}'] } }),
        { folder, trusted: true, interpreter: ['/usr/bin/python3'] }).settings;
    assert.deepEqual(fromExtension.path, ['/usr/bin/python3']);
});

test('bad values are reported and replaced by defaults', () => {
    const read = readerOf({
        importStrategy: { workspaceValue: 'bundled' },
        showNotifications: { workspaceValue: 'sometimes' },
        lintOnChange: { workspaceValue: 'yes' },
        args: { workspaceValue: ['ok', 3] },
        select: { workspaceValue: ' tc1 , tc2' },
        ignore: { workspaceValue: ['tc210', ''] },
    });
    const { settings, problems } = resolveSettings(read, { folder, trusted: true });
    assert.equal(settings.importStrategy, 'fromEnvironment');
    assert.equal(settings.showNotifications, 'onError');
    assert.equal(settings.lintOnChange, true);
    assert.deepEqual(settings.args, ['ok']);
    assert.deepEqual(settings.select, ['TC1', 'TC2']);
    assert.deepEqual(settings.ignore, ['TC210']);
    assert.equal(problems.length, 4);
    assert.ok(problems.some((p) => p.includes('importStrategy') && p.includes('useBundled, fromEnvironment')));
});

test('valid enum and boolean values are kept', () => {
    const read = readerOf({
        importStrategy: { globalValue: 'useBundled' },
        showNotifications: { globalValue: 'always' },
        lintOnChange: { workspaceFolderValue: false, globalValue: true },
    });
    const { settings, problems } = resolveSettings(read, { trusted: true, cwd: '/tmp' });
    assert.deepEqual(problems, []);
    assert.equal(settings.importStrategy, 'useBundled');
    assert.equal(settings.showNotifications, 'always');
    assert.equal(settings.lintOnChange, false);
    assert.equal(settings.workspace, '');
    assert.equal(settings.cwd, '/tmp');
});

test('severity map is normalized', () => {
    const problems: string[] = [];
    assert.deepEqual(normalizeSeverityMap({ tc1: 'Error', TC210: 'info', TC3: 'fatal', ' ': 'hint' }, problems),
        { TC1: 'error', TC210: 'information' });
    assert.equal(problems.length, 1);
    assert.deepEqual(normalizeSeverityMap(['x'], problems), {});
    assert.equal(problems.length, 2);
});

test('showNotifications levels', () => {
    assert.equal(shouldNotify('off', 'error'), false);
    assert.equal(shouldNotify('onError', 'error'), true);
    assert.equal(shouldNotify('onError', 'warning'), false);
    assert.equal(shouldNotify('onWarning', 'warning'), true);
    assert.equal(shouldNotify('onWarning', 'info'), false);
    assert.equal(shouldNotify('always', 'info'), true);
});

test('isInsideFolder', () => {
    assert.equal(isInsideFolder('/work/proj/.venv/bin/python', '/work/proj'), true);
    assert.equal(isInsideFolder('/work/proj', '/work/proj'), true);
    assert.equal(isInsideFolder('/work/project2/python', '/work/proj'), false);
    assert.equal(isInsideFolder('/usr/bin/python3', '/work/proj'), false);
    assert.equal(isInsideFolder('C:\\w\\p\\.venv\\Scripts\\python.exe', 'c:\\w\\p', path.win32), true);
});

test('server payload: info level and no empty select', () => {
    const { settings } = resolveSettings(readerOf({
        severity: { workspaceValue: { TC1: 'information', TC2: 'error' } },
        ignore: { workspaceValue: ['TC3'] },
    }), { folder, trusted: true });
    const payload = toServerSettings(settings);
    assert.deepEqual(payload.severity, { TC1: 'info', TC2: 'error' });
    assert.equal('select' in payload, false);
    assert.deepEqual(payload.ignore, ['TC3']);
    assert.equal(payload.lintOnChange, true);
    assert.equal(payload.workspace, 'file:///work/proj');
    assert.deepEqual(settings.severity, { TC1: 'information', TC2: 'error' }, 'the input is not changed');
    assert.deepEqual(toServerSettings({ ...settings, select: ['ALL'] }).select, ['ALL']);
});

test('confirm settings: enabled follows trust, values are checked', () => {
    const read = readerOf({
        'confirm.python': { workspaceValue: '${workspaceFolder}/.venv/bin/python' },
        'confirm.device': { globalValue: 'cuda' },
        'confirm.timeout': { workspaceFolderValue: 30 },
        'confirm.onSave': { workspaceValue: true },
        'confirm.showRefuted': { globalValue: false },
    });
    const trusted = resolveSettings(read, { folder, trusted: true });
    assert.deepEqual(trusted.problems, []);
    assert.deepEqual(trusted.settings.confirm, {
        enabled: true, python: '/work/proj/.venv/bin/python', device: 'cuda', timeout: 30, onSave: true, showRefuted: false,
    });
    assert.deepEqual(toServerSettings(trusted.settings).confirm, trusted.settings.confirm, 'sent as the server\'s confirm table');

    // Untrusted: nothing runs, and the workspace cannot choose the interpreter.
    const untrusted = resolveSettings(read, { folder, trusted: false }).settings.confirm;
    assert.equal(untrusted.enabled, false);
    assert.equal(untrusted.python, '');
    assert.equal(untrusted.device, 'cuda');

    const bad = resolveSettings(readerOf({
        'confirm.device': { workspaceValue: 'tpu' },
        'confirm.timeout': { workspaceValue: -1 },
        'confirm.onSave': { workspaceValue: 'yes' },
        'confirm.python': { workspaceValue: 3 },
    }), { folder, trusted: true });
    assert.equal(bad.problems.length, 4);
    assert.deepEqual(bad.settings.confirm, { enabled: true, python: '', onSave: false, showRefuted: true });
    // null (the package.json default of timeout) means unset.
    assert.equal(resolveSettings(readerOf({ 'confirm.timeout': { defaultValue: null } }), { trusted: true }).settings.confirm.timeout, undefined);
});

test('confirm command arguments', () => {
    const active = 'file:///work/proj/models.py';
    assert.deepEqual(confirmArguments('tclint.confirmFile', [], active), [active]);
    assert.deepEqual(confirmArguments('tclint.confirmFile', [], undefined), []);
    assert.deepEqual(confirmArguments('tclint.confirmFile', ['file:///work/proj/a.py'], active), ['file:///work/proj/a.py']);
    const uriLike = { scheme: 'file', toString: () => 'file:///work/proj/b.py' };
    assert.deepEqual(confirmArguments('tclint.confirmFile', [uriLike, [uriLike]], active), ['file:///work/proj/b.py']);
    assert.deepEqual(confirmArguments('tclint.confirmWorkspace', [], active), []);
    assert.deepEqual(confirmArguments('tclint.confirmWorkspace', [{ scheme: 'file', toString: () => 'file:///work/proj/sub' }]),
        ['file:///work/proj/sub']);
});
