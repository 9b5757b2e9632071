import { expect } from 'chai';
import type { Decider, DomainEvent } from '../../../core/commands/decider.js';
import { ProblemError, type ProblemType } from '../../../core/problems.js';

/** Emmett's test shape for a decider: given past events, when a command, then new events or a problem. */
export function deciderSpec<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return (given: Event[]) => ({
    when(command: Command) {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        then(expected: Event[]) {
          expect(run()).to.deep.equal(expected);
        },
        thenThrows(type: ProblemType) {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown, 'a ProblemError').to.be.instanceOf(ProblemError);
          expect((thrown as ProblemError).type.slug).to.equal(type.slug);
        },
      };
    },
  });
}
