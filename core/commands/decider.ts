/**
 * A decider (Emmett's shape): pure functions, no I/O. `decide` turns a command and the current state
 * into the events that record what happened, or throws a ProblemError; `evolve` folds one event into
 * the state. The command handler is the only place that reads and appends. Both are pure and never
 * change a state in place: the command handler caches folded states and shares them.
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState(): State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
}
