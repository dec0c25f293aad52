// Checks package.json against the code: settings, commands, trust declaration, pure modules.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CONFIRM_COMMANDS, CONFIRM_DEVICES, IMPORT_STRATEGIES, NOTIFICATION_LEVELS, resolveSettings, RESTRICTED_KEYS, SEVERITY_NAMES } from '../settings';

const root = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const properties: Record<string, any> = manifest.contributes.configuration.properties;

test('identity and entry point', () => {
    assert.equal(manifest.name, 'tclint');
    assert.equal(manifest.publisher, 'tclint');
    assert.equal(manifest.engines.vscode, '^1.82.0');
    assert.equal(manifest.main, './out/extension.js');
    assert.ok(manifest.activationEvents.includes('onLanguage:python'));
    assert.ok(manifest.activationEvents.includes('onNotebook:jupyter-notebook'));
    assert.ok(manifest.activationEvents.includes('onCommand:tclint.restart'));
    assert.ok(manifest.activationEvents.includes('onCommand:tclint.showOutput'));
    assert.equal(manifest.extensionDependencies, undefined, 'the Python extension is optional');
});

test('every resolved setting is contributed, with the code\'s defaults', () => {
    const { settings } = resolveSettings((key) => ({ defaultValue: properties[`tclint.${key}`]?.default }), { trusted: true });
    const internal = new Set(['workspace', 'cwd', 'workspaceTrusted', 'confirm']);
    for (const key of Object.keys(settings).filter((k) => !internal.has(k))) {
        assert.ok(properties[`tclint.${key}`], `tclint.${key} is missing from package.json`);
    }
    // tclint.confirm.*: every key but `enabled` (workspace trust decides it) is a setting.
    for (const key of ['python', 'device', 'timeout', 'onSave', 'showRefuted']) {
        assert.ok(properties[`tclint.confirm.${key}`], `tclint.confirm.${key} is missing from package.json`);
    }
    assert.equal(properties['tclint.confirm.enabled'], undefined, 'confirm.enabled follows workspace trust');
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
    assert.deepEqual(properties['tclint.confirm.device'].enum, [...CONFIRM_DEVICES]);
    assert.equal(properties['tclint.confirm.python'].type, 'string');
    assert.equal(properties['tclint.confirm.onSave'].default, false);
    assert.equal(properties['tclint.confirm.showRefuted'].default, true);
});

test('commands', () => {
    const commands = Object.fromEntries(manifest.contributes.commands.map((c: any) => [c.command, `${c.category}: ${c.title}`]));
    assert.deepEqual(commands, {
        'tclint.restart': 'tclint: Restart Server',
        'tclint.showOutput': 'tclint: Show Output',
        'tclint.confirmFile': 'tclint: Confirm Graph Breaks in File',
        'tclint.confirmWorkspace': 'tclint: Confirm Graph Breaks in Workspace',
    });
    // Confirming runs the workspace's code: never in Restricted Mode.
    for (const c of manifest.contributes.commands.filter((c: any) => CONFIRM_COMMANDS.includes(c.command))) {
        assert.equal(c.enablement, 'isWorkspaceTrusted', c.command);
    }
    for (const entries of Object.values(manifest.contributes.menus) as any[]) {
        for (const entry of entries.filter((e: any) => CONFIRM_COMMANDS.includes(e.command))) {
            assert.match(entry.when, /isWorkspaceTrusted/, entry.command);
        }
    }
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
