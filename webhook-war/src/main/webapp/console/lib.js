// The one place that names the rendering library: Preact + htm + hooks as a single ES module from the
// org.mvnpm:htm WebJar (webhook-war/pom.xml pins the version). Relative, so the console works under any context root.
export {
    html, render, useState, useEffect, useRef, useMemo, useCallback, useReducer
} from '../_static/htm/3.1.1/preact/standalone.module.js';
