// The reload guard before the app runs (specification sections 4 and 9: a chunk-load error reloads the
// page at most once per path within 10 seconds). The page's module script imports the route modules;
// when one of them cannot be fetched nothing of the app runs (client-recovery.ts never loads), the page
// stays as the server drew it and no button works. This small classic script, written into <head>
// before the module script, hears that failure (a window `error` or `unhandledrejection` whose message is
// a failed module fetch), reloads once per path within the guard's 10 s (the same session-storage record
// as client-recovery.ts), and past that shows the message below with a reload button.

/** The words of a page whose code could not be loaded (also the root error boundary's). */
export const CHUNK_FAILURE_TITLE = 'ページを読み込めませんでした';
export const CHUNK_FAILURE_TEXT = '通信の状態を確かめて、もう一度読み込んでください。';
export const CHUNK_FAILURE_BUTTON = '再読み込み';

/** Shared with client-recovery.ts: one record of reloads per path. */
export const CHUNK_RELOAD_STORAGE_KEY = 'oripa:chunk-reloads';

/** The same failed-fetch messages client-recovery.ts recognises (Chromium, Firefox, Safari, Vite). */
const PATTERN =
  'Unable to preload CSS|Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Loading chunk [\\\\w-]+ failed';

/**
 * The inline script's text. Self-contained ES5 (it runs before anything else), no user data inside.
 * @example <script nonce={nonce} dangerouslySetInnerHTML={{ __html: chunkGuardBootScript(10_000) }} />
 */
export function chunkGuardBootScript(guardMs: number): string {
  return `(function(){
var KEY=${JSON.stringify(CHUNK_RELOAD_STORAGE_KEY)},GUARD=${Number(guardMs)},RE=new RegExp(${JSON.stringify(PATTERN)},'i'),shown=false;
function started(){return document.documentElement.getAttribute('data-hydrated')==='true';}
function chunk(e){var m=e&&e.message!==undefined?e.message:String(e||'');return RE.test(m);}
function allowed(path){var now=Date.now(),r={};try{r=JSON.parse(sessionStorage.getItem(KEY)||'{}')||{};}catch(x){r={};}
if(typeof r[path]==='number'&&now-r[path]<GUARD)return false;
for(var k in r){if(now-r[k]>GUARD)delete r[k];}r[path]=now;try{sessionStorage.setItem(KEY,JSON.stringify(r));}catch(x){}return true;}
function show(){if(shown)return;shown=true;var box=document.createElement('div');
box.setAttribute('role','alertdialog');box.setAttribute('aria-modal','true');box.setAttribute('aria-labelledby','chunk-failure-title');box.setAttribute('aria-describedby','chunk-failure-text');box.setAttribute('data-testid','chunk-failure');
box.className='fixed inset-0 z-loading flex items-center justify-center bg-black/40 p-6';
box.innerHTML='<div class="w-full max-w-sm rounded-2xl bg-white p-6 text-center shadow-lg"><h2 id="chunk-failure-title" class="text-lg font-bold">${CHUNK_FAILURE_TITLE}</h2><p id="chunk-failure-text" class="mt-2 text-sm">${CHUNK_FAILURE_TEXT}</p><button type="button" class="mt-5 inline-flex min-h-12 w-full items-center justify-center rounded-full bg-primary-ink px-6 font-bold text-white">${CHUNK_FAILURE_BUTTON}</button></div>';
box.querySelector('button').addEventListener('click',function(){location.reload();});
var spinner=document.getElementById('app-loading');if(spinner)spinner.remove();
document.body.appendChild(box);box.querySelector('button').focus();}
function failed(e){if(started()||!chunk(e))return;if(allowed(location.pathname))location.reload();else show();}
addEventListener('error',function(ev){failed(ev.error||ev.message);});
addEventListener('unhandledrejection',function(ev){failed(ev.reason);});
})();`;
}
