// Tests that run the `tafel` command need dist/ built from the current sources (as npm run build does), and
// `tafel serve` its page (dist/web, bundled by vite).
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/@typescript/native/bin/tsc', '-p', 'tsconfig.json'], {
    stdio: 'inherit',
  });
  // The command itself (dist/src/cli/main.js) is bundled from the sources over what tsc wrote.
  execFileSync(process.execPath, ['scripts/bundle-cli.mjs'], { stdio: 'inherit' });
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', 'web', '--outDir', '../dist/web', '--emptyOutDir', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  );
}
