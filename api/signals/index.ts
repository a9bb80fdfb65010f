import { createCompositePredictionStore } from '../../db/signals/composite-prediction-store';
import { createSignalStore } from '../../db/signals/signal-store';
import { defineApiArea } from '../api-area';
import { compositePredictionRoutes } from './composite-prediction-routes';
import { signalRoutes } from './signal-routes';

export const signalsApi = defineApiArea({
  name: 'signals',
  deps: (ctx) => ({
    signalStore: createSignalStore(ctx.db),
    predictionStore: createCompositePredictionStore(ctx.db),
    now: ctx.now,
  }),
  parts: (d) => ({ routes: [signalRoutes(d), compositePredictionRoutes(d)] }),
});
