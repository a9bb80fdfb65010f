// Every workflow the worker registers, by area. Workflow code is bundled from here and must stay deterministic.
export * from './ops';
export * from './market';
export * from './mint';
export * from './live';
export * from './accuracy';
export * from './access';
export * from './billing';
export * from './wallets';
export * from './signals';
export * from './perps';
export * from './ledger';
export * from './verdict';
export * from './history';
export * from './paper';
export * from './webhooks';
export * from './alerts';
export * from './metadata';
