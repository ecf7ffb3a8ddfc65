/**
 * The Dockerfile, linted (dockerfile-utils, the linter of the Docker language server) and read
 * against the code: every command it runs exists in package.json or scripts/, every target's ROLE
 * is one the config accepts, and each image runs unprivileged under an init with a health check.
 */
import { validate } from 'dockerfile-utils';
import { CONFIG_VARIABLES, ROLES, loadConfig } from '@sitelens/config';
import type { Copy, Env, Property } from 'dockerfile-ast';
import {
  chainInstructions,
  dockerIgnores,
  dockerignorePatterns,
  execForm,
  parseDockerfile,
  repoFile,
  repoPathExists,
  stageChain,
} from './support/manifests';

const text = repoFile('Dockerfile');
const { stages, args } = parseDockerfile(text);
const pkg = JSON.parse(repoFile('package.json')) as { scripts: Record<string, string>; packageManager: string };
const TARGETS = ['gateway', 'screenshot-worker', 'parse-worker', 'all'] as const;
const BROWSER_TARGETS = ['screenshot-worker', 'parse-worker', 'all'];
const BROWSER_PACKAGES = ['chromium', 'fonts-liberation', 'fonts-noto-color-emoji', 'fonts-noto-cjk'];
/** Variables an image may set that are the platform's, not the service's. */
const PLATFORM_VARIABLES = ['NODE_ENV'];

function envOf(target: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const instruction of chainInstructions(stages, target, 'ENV')) {
    for (const property of (instruction as Env).getProperties() as Property[]) env[property.getName()] = property.getValue() ?? '';
  }
  return env;
}

function runCommands(target: string): string[] {
  return chainInstructions(stages, target, 'RUN').flatMap((run) =>
    (run.getArgumentsContent() ?? '').split(/&&|;/).map((c) => c.replace(/\s+/g, ' ').trim()),
  );
}

function last<T>(items: readonly T[]): T | undefined {
  return items[items.length - 1];
}

describe('Dockerfile', () => {
  it('passes the linter with no problem reported', () => {
    const problems = validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    expect(problems).toEqual([]);
  });

  it('builds every role from node:20-bookworm-slim, the default target being the all-in-one image', () => {
    expect(args.NODE_IMAGE).toBe('node:20-bookworm-slim');
    for (const target of TARGETS) {
      expect([target, stageChain(stages, target)[0]?.from]).toEqual([target, '${NODE_IMAGE}']);
    }
    expect(last(stages)?.name).toBe('all');
    expect(stages.map((s) => s.name)).toEqual(expect.arrayContaining(['build', 'runtime', 'browser', ...TARGETS]));
  });

  it('installs from the lockfile, builds with the build script and keeps production dependencies only', () => {
    const commands = runCommands('build');
    const pnpmVersion = pkg.packageManager.replace(/^pnpm@/, '');
    expect(commands).toContain(`npm install -g pnpm@${pnpmVersion}`);
    expect(commands).toContain('pnpm fetch');
    expect(commands).toContain('pnpm install --frozen-lockfile --offline');
    expect(commands).toContain(`pnpm exec ${pkg.scripts.build}`);
    expect(commands).toContain('pnpm install --frozen-lockfile --offline --prod');
    // The prod install comes after the build, from a clean node_modules.
    const prod = commands.indexOf('pnpm install --frozen-lockfile --offline --prod');
    expect(prod).toBeGreaterThan(commands.indexOf(`pnpm exec ${pkg.scripts.build}`));
    expect(commands[prod - 1]).toMatch(/^rm -rf node_modules packages\/\*\/node_modules services\/\*\/node_modules$/);
  });

  it('references only commands and files that exist', () => {
    for (const target of TARGETS) {
      for (const command of runCommands(target)) {
        const script = /^(?:npm|pnpm) run ([\w:-]+)/.exec(command)?.[1];
        if (script) expect([command, pkg.scripts[script]]).toEqual([command, expect.any(String)]);
        const file = /^(?:node|bash|sh) ([\w./-]+)/.exec(command)?.[1];
        if (file) expect([command, repoPathExists(file)]).toEqual([command, true]);
        const tsconfig = /tsc -b ([\w./-]+)/.exec(command)?.[1];
        if (tsconfig) expect(repoPathExists(tsconfig)).toBe(true);
      }
    }
    for (const copy of stages.flatMap((s) => s.instructions).filter((i) => i.getKeyword() === 'COPY')) {
      if ((copy as Copy).getFlags().some((flag) => flag.getName() === 'from')) continue;
      const sources = copy
        .getArguments()
        .map((a) => a.getValue())
        .slice(0, -1);
      for (const source of sources) {
        if (source === '.') continue;
        expect([source, repoPathExists(source), dockerIgnores(dockerignorePatterns(), source)]).toEqual([source, true, false]);
      }
    }
  });

  it.each(TARGETS)('%s: ROLE, command, init, user and health check', (target) => {
    const env = envOf(target);
    expect(ROLES).toContain(env.ROLE);
    expect(env.ROLE).toBe(target);

    // CMD is what `npm run serve` runs, with the script in the build context.
    const cmd = execForm(last(chainInstructions(stages, target, 'CMD'))!);
    expect(cmd?.join(' ')).toBe(pkg.scripts.serve);
    expect(repoPathExists(cmd![1])).toBe(true);
    expect(dockerIgnores(dockerignorePatterns(), cmd![1])).toBe(false);

    // tini is PID 1 and is installed where it is used.
    const entrypoint = execForm(last(chainInstructions(stages, target, 'ENTRYPOINT'))!);
    expect(entrypoint).toEqual(['/usr/bin/tini', '--']);
    expect(runCommands(target).some((c) => /apt-get install .*\btini\b/.test(c))).toBe(true);

    // An unprivileged user, created in the image.
    const user = last(chainInstructions(stages, target, 'USER'))?.getArgumentsContent();
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(runCommands(target).some((c) => new RegExp(`useradd .*\\b${user}$`).test(c))).toBe(true);

    // A health check that runs a script that exists.
    const healthcheck = last(chainInstructions(stages, target, 'HEALTHCHECK'));
    expect(healthcheck).toBeDefined();
    const probe = execForm(healthcheck!);
    expect(probe?.[0]).toBe('node');
    expect(repoPathExists(probe![1])).toBe(true);
  });

  it.each(TARGETS)('%s: sets only variables the config reads, with values it accepts', (target) => {
    const env = envOf(target);
    const runtimeEnv = Object.keys(env).filter(
      (name) => !chainInstructions(stages, 'build', 'ENV').some((i) => i.getArgumentsContent()?.includes(`${name}=`)),
    );
    for (const name of runtimeEnv) {
      expect([name, CONFIG_VARIABLES.includes(name) || PLATFORM_VARIABLES.includes(name)]).toEqual([name, true]);
    }
    expect(() => loadConfig(Object.fromEntries(runtimeEnv.map((name) => [name, env[name]])))).not.toThrow();
  });

  it.each(TARGETS)('%s: exposes the ports its role listens on (a gateway: the API, and the ops port of hosted mode)', (target) => {
    const exposed = chainInstructions(stages, target, 'EXPOSE').flatMap((i) => (i.getArgumentsContent() ?? '').split(/\s+/).map(Number));
    const ports =
      target === 'gateway' || target === 'all'
        ? [loadConfig({}).http.port, loadConfig({ MODE: 'hosted', ROLE: target }).opsHttp!.port]
        : [loadConfig({ ROLE: target }).opsHttp!.port];
    expect(exposed).toEqual(ports);
  });

  it('gives Chromium and Latin, emoji and CJK fonts to every image that renders pages, and not to the gateway', () => {
    for (const target of BROWSER_TARGETS) {
      const install = runCommands(target)
        .filter((c) => c.startsWith('apt-get install'))
        .join(' ');
      for (const name of BROWSER_PACKAGES) expect([target, name, new RegExp(`\\b${name}\\b`).test(install)]).toEqual([target, name, true]);
      expect(envOf(target).CHROME_PATH).toBe('/usr/bin/chromium');
    }
    expect(runCommands('gateway').join(' ')).not.toMatch(/\bchromium\b/);
    expect(envOf('gateway').CHROME_PATH).toBeUndefined();
  });

  it('keeps local data, secrets and build output out of the build context', () => {
    const patterns = dockerignorePatterns();
    for (const file of [
      'node_modules/x',
      'packages/web/node_modules/x',
      'packages/web/dist/index.js',
      '.env',
      '.env.local',
      '.git/HEAD',
      '.data/blobs/a.png',
      'packages/config/tsconfig.tsbuildinfo',
    ]) {
      expect([file, dockerIgnores(patterns, file)]).toEqual([file, true]);
    }
    for (const file of [
      'package.json',
      'pnpm-lock.yaml',
      'scripts/serve.js',
      'scripts/healthcheck.js',
      'packages/config/src/config.ts',
      'packages/browser/assets/adblock-lists.txt',
      'tsconfig.json',
    ]) {
      expect([file, dockerIgnores(patterns, file)]).toEqual([file, false]);
    }
  });
});
