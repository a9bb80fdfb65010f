// The alerts area's workflows, for the worker's bundle (workflows/index.ts). Deterministic code only.
export { botSender } from './bot-sender-workflow';
