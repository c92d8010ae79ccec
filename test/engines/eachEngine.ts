/**
 * The engines of a file that starts a server of its own (the console's and the designer's journeys): Firefox ESR and
 * WebKitGTK start as the file's first hook runs, beside whatever the file starts next (the engines are the slowest
 * part of the file), then serve one describe each in turn, which quits its engine when done.
 */
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { launchFirefox, launchWebKit, type Engine, type EnginePage } from './engines';
import { shot } from './authorPages';

/** One engine's browser and page as a describe's journeys use them; usable in hooks and journeys, not at declaration. */
export interface EngineAt {
  engine: Engine & { errors?: string[] };
  page: EnginePage;
}

const LAUNCHES = [
  { name: 'Firefox ESR (WebDriver BiDi)', launch: launchFirefox },
  { name: 'WebKitGTK MiniBrowser (WebDriver)', launch: launchWebKit },
] as const;

/** An object that reads every property from what `of` answers at the time of the read. */
function lateBound<T extends object>(of: () => T | undefined, what: string): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const current = of();
      if (!current) throw new Error(`the ${what} is not started yet: use it in a hook or a journey`);
      return Reflect.get(current, key);
    },
  });
}

/**
 * Call before the file's own hooks: its beforeAll starts both engines without waiting for them, its afterAll quits
 * the ones a describe did not (a failed start leaves them). `describeEach(journeys)` declares `journeys` once per
 * engine, with that engine and a page of it; a journey that fails leaves a screenshot of what the page showed.
 */
export function launchEngines(): { describeEach(journeys: (at: EngineAt) => void): void } {
  const launched = new Map<string, Promise<Engine>>();
  beforeAll(() => {
    for (const { name, launch } of LAUNCHES) {
      const engine = launch();
      engine.catch(() => undefined); // its describe reports the failure
      launched.set(name, engine);
    }
  });
  afterAll(async () => {
    const engines = [...launched.values()];
    launched.clear();
    await Promise.all(engines.map(async (engine) => (await engine.catch(() => null))?.quit().catch(() => undefined)));
  });
  return {
    describeEach(journeys) {
      for (const { name } of LAUNCHES) {
        describe(name, () => {
          let started: EngineAt | undefined;
          beforeAll(async () => {
            const engine = await launched.get(name)!;
            started = { engine, page: await engine.newPage() };
          });
          afterAll(async () => {
            const engine = launched.get(name);
            launched.delete(name);
            await (await engine?.catch(() => null))?.quit();
          });
          afterEach(async ({ task }) => {
            if (started && (task.result?.state === 'fail' || task.result?.errors?.length)) {
              await shot(started.page, started.engine.name, `failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
            }
          });
          journeys({ engine: lateBound(() => started?.engine, 'engine'), page: lateBound(() => started?.page, 'page') });
        });
      }
    },
  };
}
