// Checks package.json against the code: settings, commands, trust declaration, pure modules.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { IMPORT_STRATEGIES, NOTIFICATION_LEVELS, resolveSettings, RESTRICTED_KEYS, SEVERITY_NAMES } from '../settings';

const root = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const properties: Record<string, any> = manifest.contributes.configuration.properties;

test('identity and entry point', () => {
    assert.equal(manifest.name, 'tclint');
    assert.equal(manifest.publisher, 'tclint');
    assert.equal(manifest.engines.vscode, '^1.82.0');
    assert.equal(manifest.main, './out/extension.js');
    assert.ok(manifest.activationEvents.includes('onLanguage:python'));
    assert.ok(manifest.activationEvents.includes('onCommand:tclint.restart'));
    assert.ok(manifest.activationEvents.includes('onCommand:tclint.showOutput'));
    assert.equal(manifest.extensionDependencies, undefined, 'the Python extension is optional');
});

test('every resolved setting is contributed, with the code\'s defaults', () => {
    const { settings } = resolveSettings((key) => ({ defaultValue: properties[`tclint.${key}`]?.default }), { trusted: true });
    const internal = new Set(['workspace', 'cwd', 'workspaceTrusted']);
    for (const key of Object.keys(settings).filter((k) => !internal.has(k))) {
        assert.ok(properties[`tclint.${key}`], `tclint.${key} is missing from package.json`);
    }
    const plain = resolveSettings(() => undefined, { trusted: true }).settings;
    assert.deepEqual(settings, plain, 'package.json defaults equal the defaults in settings.ts');
});

test('setting types and enums', () => {
    for (const key of ['interpreter', 'path', 'args', 'select', 'ignore']) {
        assert.equal(properties[`tclint.${key}`].type, 'array', key);
        assert.equal(properties[`tclint.${key}`].items.type, 'string', key);
    }
    assert.deepEqual(properties['tclint.importStrategy'].enum, [...IMPORT_STRATEGIES]);
    assert.equal(properties['tclint.importStrategy'].default, 'fromEnvironment');
    assert.deepEqual(properties['tclint.showNotifications'].enum, [...NOTIFICATION_LEVELS]);
    assert.deepEqual(properties['tclint.severity'].additionalProperties.enum, [...SEVERITY_NAMES]);
    assert.equal(properties['tclint.lintOnChange'].type, 'boolean');
    assert.equal(properties['tclint.lintOnChange'].default, true);
});

test('commands', () => {
    const commands = Object.fromEntries(manifest.contributes.commands.map((c: any) => [c.command, `${c.category}: ${c.title}`]));
    assert.deepEqual(commands, { 'tclint.restart': 'tclint: Restart Server', 'tclint.showOutput': 'tclint: Show Output' });
});

test('untrusted workspaces: limited, program-choosing settings restricted', () => {
    const trust = manifest.capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    assert.deepEqual([...trust.restrictedConfigurations].sort(), RESTRICTED_KEYS.map((k) => `tclint.${k}`).sort());
});

test('pure modules do not load vscode', () => {
    for (const file of ['settings.js', 'serverCommand.js', 'findings.js', 'preflight.js']) {
        const js = fs.readFileSync(path.join(root, 'out', file), 'utf8');
        assert.doesNotMatch(js, /require\(["']vscode["']\)/, file);
    }
});
