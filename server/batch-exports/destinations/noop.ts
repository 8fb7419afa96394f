import type { Deliver, Destination } from './types.ts';

/** NoOp: reads nothing out, sends nothing, completes with the interval's record count. */
export const deliverNoOp: Deliver = ({ total, log }) => {
  log('INFO', `NoOp destination: ${total} records counted, nothing sent.`);
  return Promise.resolve(total);
};

export const noOpDestination: Destination = {
  deliver: deliverNoOp,
  check: () =>
    Promise.resolve([{ step: 'Nothing to connect to', status: 'passed', detail: 'A NoOp destination sends nothing.' }]),
};
