#!/bin/sh
# Builds vscode-extension/tclint.vsix: installs the locked dependencies, compiles and tests the
# TypeScript, bundles it with esbuild, then packages it with vsce 3 (vsce 4 needs Node >= 22;
# this runs on Node 20).
# Needs node >= 20, npm and the npm registry (npx fetches @vscode/vsce the first time).
set -eu
cd "$(dirname "$0")"
if [ -f package-lock.json ]; then
    npm ci --no-audit --no-fund
else
    npm install --no-audit --no-fund
fi
npm test
# vscode:prepublish bundles src/extension.ts and its dependencies into out/extension.js.
# vsce turns README.md's relative links into repository URLs but ignores repository.directory,
# so it is given the folder's URLs (media/screenshot.png is not in the VSIX).
base=https://github.com/tclint/tclint/raw/HEAD/vscode-extension
npx --yes @vscode/vsce@3 package --no-dependencies --baseImagesUrl "$base" \
    --baseContentUrl https://github.com/tclint/tclint/blob/HEAD/vscode-extension --out tclint.vsix
ls -l tclint.vsix
