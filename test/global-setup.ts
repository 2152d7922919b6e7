// Tests that run the `tafel` command need dist/ built from the current sources.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/@typescript/native/bin/tsc', '-p', 'tsconfig.json'], {
    stdio: 'inherit',
  });
}
