import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { absoluteProgram, buildServerCommand, defaultInterpreter, DOCUMENT_SELECTOR, formatCommandLine, isBareTclintExecutable } from '../serverCommand';

const base = { path: [] as string[], interpreter: [] as string[], args: [] as string[], importStrategy: 'fromEnvironment' as const };

test('tclint.path wins over everything', () => {
    const cmd = buildServerCommand({
        settings: { ...base, path: ['/venv/bin/tclint', 'server'], interpreter: ['/usr/bin/python3'], args: ['--verbose'] },
        pythonExtensionInterpreter: ['/other/python'],
    });
    assert.equal(cmd.command, '/venv/bin/tclint');
    assert.deepEqual(cmd.args, ['server', '--verbose']);
    assert.equal(cmd.source, 'path');
    assert.deepEqual(cmd.warnings, []);
});

test('a lone tclint executable gets `server`', () => {
    assert.deepEqual(buildServerCommand({ settings: { ...base, path: ['/venv/bin/tclint'] } }).args, ['server']);
    assert.deepEqual(buildServerCommand({ settings: { ...base, path: ['C:\\v\\Scripts\\tclint.exe'] } }).args, ['server']);
    assert.deepEqual(buildServerCommand({ settings: { ...base, path: ['/opt/my-server'] } }).args, []);
    assert.equal(isBareTclintExecutable(['tclint', 'server']), false);
});

test('tclint.interpreter runs -m tclint.server', () => {
    const cmd = buildServerCommand({
        settings: { ...base, interpreter: ['/venv/bin/python', '-X', 'utf8'], args: ['--log-level', 'debug'] },
        pythonExtensionInterpreter: ['/other/python'],
    });
    assert.equal(cmd.command, '/venv/bin/python');
    assert.deepEqual(cmd.args, ['-X', 'utf8', '-m', 'tclint.server', '--log-level', 'debug']);
    assert.equal(cmd.source, 'interpreter');
    assert.equal(cmd.env.TCLINT_IMPORT_STRATEGY, 'fromEnvironment');
});

test('the Python extension interpreter comes next, then python3', () => {
    const fromExt = buildServerCommand({ settings: base, pythonExtensionInterpreter: ['/home/u/.pyenv/bin/python'] });
    assert.equal(fromExt.command, '/home/u/.pyenv/bin/python');
    assert.deepEqual(fromExt.args, ['-m', 'tclint.server']);
    assert.equal(fromExt.source, 'pythonExtension');

    const fallback = buildServerCommand({ settings: base, platform: 'linux' });
    assert.equal(fallback.command, 'python3');
    assert.equal(fallback.source, 'default');
    assert.equal(buildServerCommand({ settings: base, platform: 'win32' }).command, 'python');
    assert.equal(defaultInterpreter('darwin'), 'python3');
});

test('empty strings are not commands', () => {
    const cmd = buildServerCommand({ settings: { ...base, path: [''], interpreter: [''] }, pythonExtensionInterpreter: [''], platform: 'linux' });
    assert.equal(cmd.command, 'python3');
});

test('untrusted: an interpreter inside the workspace is not run', () => {
    const input = {
        settings: { ...base, workspaceTrusted: false },
        pythonExtensionInterpreter: ['/work/proj/.venv/bin/python'],
        workspaceFolders: ['/work/proj'],
        platform: 'linux',
    };
    const cmd = buildServerCommand(input);
    assert.equal(cmd.command, 'python3');
    assert.equal(cmd.source, 'default');
    assert.equal(cmd.warnings.length, 1);
    assert.match(cmd.warnings[0], /untrusted/);

    const outside = buildServerCommand({ ...input, pythonExtensionInterpreter: ['/usr/bin/python3.11'] });
    assert.equal(outside.command, '/usr/bin/python3.11');
    const trusted = buildServerCommand({ ...input, settings: { ...base, workspaceTrusted: true } });
    assert.equal(trusted.command, '/work/proj/.venv/bin/python');
});

test('useBundled without a bundle falls back with a warning; with one sets PYTHONPATH', () => {
    const none = buildServerCommand({ settings: { ...base, importStrategy: 'useBundled' }, pythonExtensionInterpreter: ['/p/python'] });
    assert.equal(none.command, '/p/python');
    assert.equal(none.env.PYTHONPATH, undefined);
    assert.equal(none.warnings.length, 1);
    assert.match(none.warnings[0], /bundles no tclint/);

    const bundled = buildServerCommand({
        settings: { ...base, importStrategy: 'useBundled' }, bundledLibsDir: '/ext/bundled/libs', pythonPath: '/x', platform: 'linux',
    });
    assert.equal(bundled.env.PYTHONPATH, '/ext/bundled/libs:/x');
    assert.deepEqual(bundled.warnings, []);
    assert.equal(bundled.env.TCLINT_IMPORT_STRATEGY, 'useBundled');

    const withPath = buildServerCommand({ settings: { ...base, importStrategy: 'useBundled', path: ['/b/tclint'] } });
    assert.match(withPath.warnings[0], /no effect/);
});

test('formatCommandLine quotes what needs it', () => {
    assert.equal(formatCommandLine({ command: '/usr/bin/python3', args: ['-m', 'tclint.server'] }), '/usr/bin/python3 -m tclint.server');
    assert.equal(formatCommandLine({ command: '/My Apps/python', args: ['a"b'] }), '"/My Apps/python" "a\\"b"');
});

test('the server gets Python files, unsaved buffers and Jupyter notebook cells', () => {
    assert.deepEqual(DOCUMENT_SELECTOR, [
        { scheme: 'file', language: 'python' },
        { scheme: 'untitled', language: 'python' },
        { notebook: 'jupyter-notebook', language: 'python' },
    ]);
});

test('the server runs in the neutral folder, never the workspace; relative programs are resolved first', () => {
    const viaInterpreter = buildServerCommand({
        settings: { ...base, interpreter: ['.venv/bin/python', '-X', 'utf8'] },
        folder: '/work/proj', neutralDir: '/ext/tclint',
    });
    assert.equal(viaInterpreter.cwd, '/ext/tclint');
    assert.equal(viaInterpreter.command, '/work/proj/.venv/bin/python');
    assert.deepEqual(viaInterpreter.interpreter, ['/work/proj/.venv/bin/python', '-X', 'utf8']);

    const viaPath = buildServerCommand({ settings: { ...base, path: ['bin/tclint'] }, folder: '/work/proj', neutralDir: '/ext/tclint' });
    assert.equal(viaPath.cwd, '/ext/tclint');
    assert.equal(viaPath.command, '/work/proj/bin/tclint');

    const fallback = buildServerCommand({ settings: base, folder: '/work/proj', neutralDir: '/ext/tclint', platform: 'linux' });
    assert.equal(fallback.cwd, '/ext/tclint');
    assert.equal(fallback.command, 'python3'); // a bare name is looked up on PATH
});

test('absoluteProgram', () => {
    assert.equal(absoluteProgram('python3', '/w'), 'python3');
    assert.equal(absoluteProgram('/usr/bin/python3', '/w'), '/usr/bin/python3');
    assert.equal(absoluteProgram('C:\\py\\python.exe', '/w'), 'C:\\py\\python.exe');
    assert.equal(absoluteProgram('./venv/bin/python', '/w'), '/w/venv/bin/python');
    assert.equal(absoluteProgram('./venv/bin/python', undefined), './venv/bin/python');
});
