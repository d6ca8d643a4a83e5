import { renderChrome } from "./common.js";

renderChrome();
