import { defineApiArea } from '../api-area';
import { createWebAssets, defaultWebAssetSource } from './web-assets';
import { landingRoute, webPages } from './web-routes';

/** The dashboard: `/` (the spec's landing page), its other pages and the bundled files they load (web/). */
export const webApi = defineApiArea({
  name: 'web',
  deps: () => ({ assets: createWebAssets(defaultWebAssetSource()) }),
  parts: (d) => ({ pages: webPages(d), routes: [landingRoute()] }),
});
