// The reveal's keyframes and effect styles, injected once with the overlay (no stylesheet to load).
// Class names start with `rv-`. Times come from CSS variables set on the overlay from the timeline.

/** A foil pack outline: crimped (zigzag) top and bottom edges. */
function packClipPath(teeth = 12, depth = 3.5): string {
  const top: string[] = [];
  const bottom: string[] = [];
  for (let i = 0; i <= teeth * 2; i++) {
    const x = +((i / (teeth * 2)) * 100).toFixed(3);
    top.push(`${x}% ${i % 2 === 0 ? depth : 0}%`);
    bottom.unshift(`${x}% ${i % 2 === 0 ? 100 - depth : 100}%`);
  }
  return `polygon(${[...top, ...bottom].join(',')})`;
}

const RAINBOW = '#ff4d6d, #ffd23f, #4ade80, #38bdf8, #a78bfa';

export const REVEAL_CSS = `
.rv-root{--rv-card-w:min(60vw,250px,30dvh);background:radial-gradient(120% 80% at 50% 42%,#1b2140 0%,#0a0d1c 60%,#05060d 100%);color:#fff;overscroll-behavior:contain;-webkit-tap-highlight-color:transparent;animation:rv-fade-in .25s ease-out both}
.rv-stage{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;overflow:hidden;pointer-events:none}
.rv-sealed-stage{pointer-events:auto}
.rv-glows{position:absolute;inset:0;animation:rv-fade-out .3s ease-in var(--rv-burst) forwards}
.rv-glow{--rv-size:min(150vw,960px);position:absolute;left:50%;top:50%;width:var(--rv-size);height:var(--rv-size);margin:calc(var(--rv-size) / -2) 0 0 calc(var(--rv-size) / -2);border-radius:50%;background:radial-gradient(circle,var(--rv-c) 0%,transparent 58%);opacity:0;animation:rv-glow-in .35s ease-out both}
.rv-glow-rainbow{background:conic-gradient(from 0deg,${RAINBOW},#ff4d6d);-webkit-mask-image:radial-gradient(circle,#000 0%,transparent 58%);mask-image:radial-gradient(circle,#000 0%,transparent 58%)}
.rv-glow-lastone{--rv-c:#a855f7}
.rv-pack-drop{position:relative;animation:rv-drop var(--rv-intro) cubic-bezier(.2,.9,.3,1.2) both}
.rv-pack-swell{animation:rv-swell var(--rv-charge-dur) ease-in var(--rv-intro) both}
.rv-pack-shake{filter:drop-shadow(0 0 22px rgba(255,255,255,.35));animation:rv-shake .16s linear var(--rv-intro) infinite}
.rv-pack-burst{animation:rv-burst-out var(--rv-burst-dur) ease-in var(--rv-burst) both}
.rv-sealed-stage .rv-pack-drop{animation:rv-float 2.4s ease-in-out infinite}
.rv-sealed-stage .rv-pack-swell,.rv-sealed-stage .rv-pack-shake,.rv-sealed-stage .rv-pack-burst{animation:none}
.rv-pack{position:relative;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.4rem;width:min(46vw,190px);aspect-ratio:2/3;clip-path:${packClipPath()};background:linear-gradient(160deg,#ff6b95 0%,#ef3a6e 28%,#7c3aed 64%,#1e1b4b 100%);overflow:hidden}
.rv-pack::before{content:'';position:absolute;left:0;right:0;top:9%;height:7%;background:rgba(255,255,255,.22)}
.rv-pack::after{content:'';position:absolute;inset:0;background:linear-gradient(100deg,transparent 30%,rgba(255,255,255,.55) 45%,transparent 60%);transform:translateX(-120%);animation:rv-sheen 1.8s ease-in-out infinite}
.rv-pack-star{font-size:min(18vw,74px);line-height:1;color:#fff7c2;text-shadow:0 0 18px rgba(255,247,194,.9)}
.rv-pack-name{font-weight:900;letter-spacing:.25em;font-size:min(4.6vw,19px)}
.rv-pack-sub{font-size:min(2.6vw,10px);letter-spacing:.2em;opacity:.85}
.rv-promo-text{position:absolute;left:0;right:0;top:14%;text-align:center;font-size:clamp(2.25rem,11vw,4rem);font-weight:900;letter-spacing:.06em;background:linear-gradient(90deg,${RAINBOW});-webkit-background-clip:text;background-clip:text;color:transparent;filter:drop-shadow(0 3px 10px rgba(0,0,0,.7));opacity:0;animation:rv-pop .5s cubic-bezier(.2,.9,.3,1.4) var(--rv-promo) both,rv-fade-out .2s ease-in var(--rv-burst) forwards}
.rv-sweep{position:absolute;top:-10%;bottom:-10%;left:-60%;width:220%;background:linear-gradient(100deg,transparent 22%,${RAINBOW},transparent 78%);mix-blend-mode:screen;opacity:0;animation:rv-sweep var(--rv-promo-dur) ease-in-out var(--rv-promo) both}
.rv-lo-banner{position:absolute;left:-6%;right:-6%;top:50%;height:5.5rem;margin-top:-2.75rem;display:flex;align-items:center;justify-content:center;background:linear-gradient(90deg,#3b0764,#8e24aa 28%,#c026d3 50%,#8e24aa 72%,#3b0764);border-block:3px solid #f5d0fe;box-shadow:0 0 48px #a855f7;font-size:clamp(1.75rem,9vw,3rem);font-weight:900;letter-spacing:.12em;text-shadow:0 3px 0 #3b0764;opacity:0;animation:rv-banner var(--rv-promo-dur) ease-out var(--rv-promo) both}
.rv-flash{position:absolute;inset:0;background:#fff;opacity:0;animation:rv-flash .6s ease-out var(--rv-burst) both}
.rv-fx-gold .rv-flash{background:#fff3b0}
.rv-fx-lastone .rv-flash{background:#f5d0fe}
.rv-rays{--rv-size:min(190vw,1500px);position:absolute;left:50%;top:50%;width:var(--rv-size);height:var(--rv-size);margin:calc(var(--rv-size) / -2) 0 0 calc(var(--rv-size) / -2);border-radius:50%;background:repeating-conic-gradient(from 0deg,var(--rv-accent) 0deg 6deg,transparent 6deg 18deg);-webkit-mask-image:radial-gradient(circle,#000 8%,transparent 62%);mask-image:radial-gradient(circle,#000 8%,transparent 62%);opacity:0;animation:rv-rays .9s ease-out var(--rv-burst) both}
.rv-fx-rainbow .rv-rays,.rv-fx-rainbow .rv-aura{background:repeating-conic-gradient(from 0deg,#ff4d6d 0deg 5deg,transparent 5deg 12deg,#ffd23f 12deg 17deg,transparent 17deg 24deg,#4ade80 24deg 29deg,transparent 29deg 36deg,#38bdf8 36deg 41deg,transparent 41deg 48deg,#a78bfa 48deg 53deg,transparent 53deg 60deg)}
.rv-tile{position:relative;aspect-ratio:5/7;perspective:700px}
.rv-tile-down{display:block;width:100%;height:100%;padding:0;border-radius:8px;background:linear-gradient(135deg,#1e3a8a,#3b82f6 45%,#1e3a8a);border:2px solid rgba(255,255,255,.6);cursor:pointer}
.rv-tile-down:focus-visible{outline:3px solid #fff;outline-offset:2px}
.rv-next .rv-tile-down{animation:rv-next .7s ease-in-out infinite alternate}
.rv-tile-inner{position:relative;width:100%;height:100%;transform-style:preserve-3d}
.rv-turned .rv-tile-inner{animation:rv-tile-turn var(--rv-tile-dur) ease-out both}
.rv-tile-back,.rv-tile-front{position:absolute;inset:0;border-radius:8px;overflow:hidden;-webkit-backface-visibility:hidden;backface-visibility:hidden}
.rv-tile-back{transform:rotateY(180deg);background:linear-gradient(135deg,#1e3a8a,#3b82f6 45%,#1e3a8a);border:2px solid rgba(255,255,255,.6)}
.rv-tile-front{background:rgba(255,255,255,.9)}
.rv-tile-front img{display:block;width:100%;height:100%;object-fit:cover}
.rv-tile-badge{position:absolute;left:0;right:0;bottom:0;padding:1px 0;font-size:12px;font-weight:900;line-height:1.25;letter-spacing:-.02em;text-align:center;white-space:nowrap;overflow:hidden}
.rv-tb-normal{background:#334155;color:#fff}
.rv-tb-silver{background:#e2e8f0;color:#0f172a}
.rv-tb-gold{background:#fbbf24;color:#1f2330}
.rv-tb-rainbow{background:linear-gradient(90deg,#fecdd3,#fef08a,#bbf7d0,#bae6fd,#ddd6fe);color:#1f2330}
.rv-tb-lastone{background:#7e22ce;color:#fff}
.rv-hit .rv-tile-front{box-shadow:0 0 0 2px var(--rv-hit),0 0 14px 2px var(--rv-hit)}
.rv-hit-gold{--rv-hit:#fbbf24}.rv-hit-rainbow{--rv-hit:#f0abfc}.rv-hit-lastone{--rv-hit:#c084fc}
.rv-turned.rv-hit .rv-tile-front{animation:rv-hit-pop .5s ease-out var(--rv-tile-dur) both}
.rv-best{z-index:1}
.rv-best::before{content:'';position:absolute;inset:-45%;border-radius:50%;background:repeating-conic-gradient(from 0deg,var(--rv-accent) 0deg 8deg,transparent 8deg 22deg);-webkit-mask-image:radial-gradient(circle,#000 20%,transparent 68%);mask-image:radial-gradient(circle,#000 20%,transparent 68%);opacity:.55;pointer-events:none;animation:rv-spin 10s linear infinite}
.rv-fx-rainbow .rv-best .rv-tile-front{box-shadow:0 0 0 3px #fff,0 0 22px 6px #f0abfc}
.rv-fx-rainbow .rv-best::before{background:conic-gradient(from 0deg,${RAINBOW},#ff4d6d)}
@keyframes rv-tile-turn{from{transform:rotateY(180deg) scale(.85)}to{transform:rotateY(0) scale(1)}}
@keyframes rv-next{from{box-shadow:0 0 0 0 rgba(255,255,255,.2)}to{box-shadow:0 0 0 4px rgba(255,255,255,.9),0 0 18px 4px rgba(255,255,255,.6)}}
@keyframes rv-hit-pop{0%{transform:scale(1)}40%{transform:scale(1.18)}100%{transform:scale(1)}}
.rv-land{animation:rv-land-in var(--rv-land-dur) ease-out both}
.rv-land-card{animation:rv-card-in var(--rv-land-dur) cubic-bezier(.2,.9,.3,1.2) both}
.rv-hold .rv-playing-stage *{animation-play-state:paused}
.rv-hold .rv-playing-stage .rv-pack-shake{animation-play-state:running}
.rv-land-card{position:relative;width:var(--rv-card-w)}
.rv-aura{position:absolute;left:50%;top:50%;width:calc(var(--rv-card-w) * 3.2);height:calc(var(--rv-card-w) * 3.2);margin:calc(var(--rv-card-w) * -1.6) 0 0 calc(var(--rv-card-w) * -1.6);border-radius:50%;background:repeating-conic-gradient(from 0deg,var(--rv-accent) 0deg 8deg,transparent 8deg 22deg);-webkit-mask-image:radial-gradient(circle,#000 12%,transparent 66%);mask-image:radial-gradient(circle,#000 12%,transparent 66%);opacity:.35;pointer-events:none;animation:rv-spin 16s linear infinite}
.rv-fx-normal .rv-aura{opacity:.18}
.rv-frame{position:relative;z-index:1;padding:5px;border-radius:16px;overflow:hidden;background:rgba(255,255,255,.85);box-shadow:0 10px 30px rgba(0,0,0,.45)}
.rv-frame img{position:relative;z-index:1;display:block;width:100%;height:auto;border-radius:11px}
.rv-fx-rainbow .rv-frame{background:none;box-shadow:0 0 44px rgba(167,139,250,.75)}
.rv-fx-rainbow .rv-frame::before{content:'';position:absolute;inset:-50%;background:conic-gradient(from 0deg,${RAINBOW},#ff4d6d);animation:rv-spin 2.4s linear infinite}
.rv-fx-gold .rv-frame{background:linear-gradient(135deg,#fff3b0,#fbbf24 35%,#b7791f 62%,#fde68a);box-shadow:0 0 40px rgba(251,191,36,.8)}
.rv-fx-silver .rv-frame{background:linear-gradient(135deg,#ffffff,#cbd5e1 40%,#94a3b8 62%,#f1f5f9);box-shadow:0 0 30px rgba(226,232,240,.6)}
.rv-fx-lastone .rv-frame{background:linear-gradient(135deg,#f5d0fe,#a855f7 40%,#6b21a8 70%,#f0abfc);box-shadow:0 0 48px rgba(168,85,247,.85)}
.rv-fx-gold .rv-frame::after,.rv-fx-silver .rv-frame::after,.rv-fx-lastone .rv-frame::after,.rv-fx-rainbow .rv-frame::after{content:'';position:absolute;inset:0;z-index:2;pointer-events:none;background:linear-gradient(105deg,transparent 35%,rgba(255,255,255,.7) 50%,transparent 65%);transform:translateX(-120%);animation:rv-sheen 2.6s ease-in-out .5s infinite}
.rv-spark{position:absolute;z-index:3;width:20px;height:20px;margin:-10px 0 0 -10px;background:#fff;clip-path:polygon(50% 0,61% 39%,100% 50%,61% 61%,50% 100%,39% 61%,0 50%,39% 39%);opacity:.9;pointer-events:none;animation:rv-twinkle 1.6s ease-in-out infinite}
.rv-fx-gold .rv-spark{background:#fde68a}
.rv-fx-lastone .rv-spark{background:#f0abfc}
.rv-badge{display:inline-flex;align-items:center;border-radius:999px;padding:.15rem 1rem;font-weight:900;font-size:1.375rem;line-height:1.35;border:3px solid #fff;box-shadow:0 3px 0 rgba(0,0,0,.4)}
.rv-fx-rainbow .rv-badge{background:linear-gradient(90deg,#fecdd3,#fef08a,#bbf7d0,#bae6fd,#ddd6fe);color:#1f2330}
.rv-fx-gold .rv-badge{background:linear-gradient(180deg,#fde68a,#d4a017);color:#1f2330}
.rv-fx-silver .rv-badge{background:linear-gradient(180deg,#f8fafc,#cbd5e1);color:#1f2330}
.rv-fx-normal .rv-badge{background:#5b6172;color:#fff}
.rv-fx-lastone .rv-badge{background:#8e24aa;color:#fff}
.rv-lo-ribbon{display:inline-block;margin-bottom:.5rem;padding:.2rem 1.25rem;transform:skewX(-12deg);background:linear-gradient(90deg,#6b21a8,#c026d3,#6b21a8);border:2px solid #f5d0fe;font-weight:900;letter-spacing:.2em;font-size:.8rem;box-shadow:0 0 20px rgba(192,38,211,.7)}
@keyframes rv-fade-in{from{opacity:0}to{opacity:1}}
@keyframes rv-fade-out{from{opacity:1}to{opacity:0}}
@keyframes rv-drop{0%{transform:translateY(-55vh) rotate(-10deg);opacity:0}70%{transform:translateY(10px) rotate(2deg);opacity:1}100%{transform:none;opacity:1}}
@keyframes rv-float{0%,100%{transform:translateY(0)}50%{transform:translateY(-10px)}}
@keyframes rv-swell{from{transform:scale(1)}to{transform:scale(1.14)}}
@keyframes rv-shake{0%,100%{transform:translate(0,0) rotate(0)}20%{transform:translate(-3px,1px) rotate(-2.5deg)}40%{transform:translate(3px,-1px) rotate(2.5deg)}60%{transform:translate(-2px,-1px) rotate(-1.5deg)}80%{transform:translate(2px,1px) rotate(1.5deg)}}
@keyframes rv-burst-out{0%{transform:scale(1);opacity:1;filter:brightness(1)}40%{transform:scale(1.25);opacity:1;filter:brightness(2.4)}100%{transform:scale(1.9);opacity:0;filter:brightness(3)}}
@keyframes rv-glow-in{0%{opacity:0;transform:scale(.5)}60%{opacity:1;transform:scale(1.1)}100%{opacity:.9;transform:scale(1)}}
@keyframes rv-flash{0%{opacity:0}20%{opacity:.95}100%{opacity:0}}
@keyframes rv-rays{0%{opacity:0;transform:scale(.3) rotate(0)}30%{opacity:1}100%{opacity:0;transform:scale(1.5) rotate(40deg)}}
@keyframes rv-spin{to{transform:rotate(360deg)}}
@keyframes rv-pop{0%{opacity:0;transform:scale(0) rotate(-12deg)}55%{opacity:1;transform:scale(1.25) rotate(3deg)}100%{opacity:1;transform:scale(1) rotate(0)}}
@keyframes rv-sweep{0%{opacity:0;transform:translateX(-60%)}20%{opacity:.9}80%{opacity:.9}100%{opacity:0;transform:translateX(60%)}}
@keyframes rv-banner{0%{opacity:0;transform:skewY(-6deg) translateX(-100%)}25%,80%{opacity:1;transform:skewY(-6deg) translateX(0)}100%{opacity:0;transform:skewY(-6deg) translateX(12%)}}
@keyframes rv-land-in{from{opacity:0;visibility:hidden}to{opacity:1;visibility:visible}}
@keyframes rv-card-in{from{transform:perspective(900px) rotateY(90deg) scale(.8)}to{transform:none}}
@keyframes rv-sheen{0%{transform:translateX(-120%)}60%,100%{transform:translateX(120%)}}
@keyframes rv-twinkle{0%,100%{opacity:0;transform:scale(.3) rotate(0)}50%{opacity:1;transform:scale(1) rotate(45deg)}}
@media (prefers-reduced-motion:reduce){
.rv-root .rv-playing-stage{display:none}
.rv-root .rv-land,.rv-root .rv-land-card,.rv-root .rv-tile-inner,.rv-root .rv-tile-front,.rv-root .rv-tile-down{animation:none!important;opacity:1;visibility:visible;transform:none}
.rv-root .rv-best::before{animation:none!important}
.rv-root .rv-aura,.rv-root .rv-spark,.rv-root .rv-frame::before,.rv-root .rv-frame::after,.rv-root .rv-pack::after,.rv-root .rv-pack-drop{animation:none!important}
.rv-root .rv-frame::after,.rv-root .rv-pack::after{display:none}
}
`;
