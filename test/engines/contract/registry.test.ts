/**
 * Every engine the kernel registers is under the contract: it has a row of expectations and a
 * target this run can start. An engine added to the registry without them fails here.
 */
import { ENGINE_FIXTURES, registeredEngines } from './engines';
import { contractTargets } from './targets';

it.each(registeredEngines())(
  'the registered engine %s has its expectations and a target that runs here',
  engine => {
    expect(ENGINE_FIXTURES[engine]?.engine).toBe(engine);
    expect(
      contractTargets()
        .filter(t => t.engine === engine && t.skipped === undefined)
        .map(t => t.name)
    ).not.toEqual([]);
  }
);

it('the suite knows no engine the kernel does not register', () => {
  expect(Object.keys(ENGINE_FIXTURES).sort()).toEqual(registeredEngines());
  expect([...new Set(contractTargets().map(t => t.engine))].sort()).toEqual(
    registeredEngines()
  );
});
