import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkExecutable, checkInterpreter } from '../preflight';

function findPython(): string | undefined {
    for (const name of ['python3', 'python']) {
        try {
            execFileSync(name, ['-c', 'pass'], { stdio: 'ignore' });
            return name;
        } catch {
            // try the next name
        }
    }
    return undefined;
}
const python = findPython();

test('a missing interpreter is notFound', async () => {
    const result = await checkInterpreter([path.join(os.tmpdir(), 'no-such-python-here')]);
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, 'notFound');
});

test('an interpreter without tclint is missingModule', { skip: !python && 'no python on PATH' }, async () => {
    // -I (isolated) with an empty PYTHONPATH: tclint cannot be found, whatever is installed.
    const result = await checkInterpreter([python!, '-I', '-S'], { env: { PATH: process.env.PATH } });
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, 'missingModule');
});

test('an interpreter whose tclint.server imports but cannot lint is cannotLint', { skip: !python && 'no python on PATH' }, async () => {
    // The broken-wheel case: the package imports, a module the server needs does not.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tclint-preflight-'));
    fs.mkdirSync(path.join(dir, 'tclint', 'server'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tclint', '__init__.py'), '');
    fs.writeFileSync(path.join(dir, 'tclint', 'server', '__init__.py'), '');
    try {
        const result = await checkInterpreter([python!, '-S'], { env: { PATH: process.env.PATH, PYTHONPATH: dir } });
        assert.equal(!result.ok && result.reason, 'cannotLint');
        assert.match(!result.ok ? result.detail : '', /tclint cannot lint: ModuleNotFoundError/);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});

// TCLINT_TEST_PYTHON: an interpreter with tclint installed (tests/test_vscode_extension.py sets it).
const installed = process.env.TCLINT_TEST_PYTHON;

test('an interpreter whose tclint lints is ok', { skip: !installed && 'TCLINT_TEST_PYTHON not set' }, async () => {
    const result = await checkInterpreter([installed!], { cwd: os.tmpdir(), timeoutMs: 60000 });
    assert.deepEqual(result, { ok: true });
});

test('an interpreter that fails otherwise is failed', { skip: !python && 'no python on PATH' }, async () => {
    const result = await checkInterpreter([python!, '-c', 'raise SystemExit(7)', '--']);
    // `-c CODE --` runs CODE; the probe's own -c comes after and is an argument.
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, 'failed');
});

test('checkExecutable', () => {
    assert.deepEqual(checkExecutable('tclint'), { ok: true });
    assert.deepEqual(checkExecutable(process.execPath), { ok: true });
    const missing = checkExecutable('./no/such/tclint', '/tmp');
    assert.equal(missing.ok, false);
});

test('the probe runs no workspace code, even with the workspace as its working directory', { skip: !python && 'no python on PATH' }, async () => {
    // A hostile workspace: a package that shadows tclint, and stdlib names the probe could import.
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tclint-hostile-'));
    const marker = path.join(workspace, 'ran');
    const plant = `open(${JSON.stringify(marker)}, 'a').write(__name__ + '\\n')\n`;
    fs.mkdirSync(path.join(workspace, 'tclint', 'server'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'tclint', '__init__.py'), plant);
    fs.writeFileSync(path.join(workspace, 'tclint', 'server', '__init__.py'), plant);
    for (const name of ['importlib_util.py', 'argparse.py', 'types.py', 'enum.py']) {
        fs.writeFileSync(path.join(workspace, name), plant);
    }
    try {
        const result = await checkInterpreter([python!, '-S'], { cwd: workspace, env: { PATH: process.env.PATH } });
        assert.equal(fs.existsSync(marker), false, fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '');
        assert.equal(!result.ok && result.reason, 'missingModule');
    } finally {
        fs.rmSync(workspace, { recursive: true, force: true });
    }
});
