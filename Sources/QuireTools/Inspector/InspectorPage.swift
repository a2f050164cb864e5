import Foundation
import InkModel

/// The report's page: head, style, the layer toggles, the legend and the little script (timeline,
/// toggles, sorting). Nothing refers to anything outside the file: no network, no other file.
enum InspectorPage {
    /// The layers the toggles show and hide (class `L-<key>`; the body gets `no-<key>`).
    static let layers = [("line", "line bands"), ("word", "words"), ("char", "characters"), ("strip", "frame strip"),
                         ("align", "alignment"), ("gesture", "gestures")]

    static func document(title: String, summary: String, body: String) -> String {
        let toggles = layers.map { "<label><input type=\"checkbox\" value=\"\($0.0)\" checked> \($0.1)</label>" }.joined()
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(XML.escape(title))</title>
        <style>\(css)</style></head>
        <body><header><h1>Quire recognition inspector: \(XML.escape(title))</h1>
        <div class="layers">Show: \(toggles)</div></header>
        \(summary)
        <p class="legend">Ink coloured by word, in writing order (the timeline under each picture plays, steps and scrubs it);
        boxes: words (yellow) and characters (dashed); strip: the network's best class per frame (· blank, darker: surer);
        bar: the CTC alignment of the reading. Scores: total (the decoder's rank) = network (CTC log-likelihood) +
        language model + lexicon bonus, less what the beam did not sum.</p>
        \(body)
        <script>\(script)</script>
        </body></html>
        """
    }

    static let css = """
    body{font-family:sans-serif;margin:0 1.5em 1.5em;color:#222;background:#fff}header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:.4em 0;z-index:2}
    h1{font-size:1.3em;margin:.2em 0}[id]{scroll-margin-top:5em}h2{font-size:1.15em;border-top:2px solid #ddd;padding-top:.6em}h3{font-size:1em;margin:.8em 0 .2em}h4{margin:.3em 0;font-size:.95em}
    .layers{font-size:.85em}.layers label{margin-right:.8em}.legend,.timings{color:#555;font-size:.85em;margin:.2em 0}.scroll{overflow-x:auto}
    figure{margin:.3em 0}svg path{fill:none;stroke-linecap:round;stroke-linejoin:round}
    rect.L-word{fill:#fffbe0;stroke:#e0c000;stroke-width:1}rect.L-char{fill:none;stroke:#999;stroke-width:.7;stroke-dasharray:3 2}
    rect.L-line{fill-opacity:.10;stroke:none}text.L-line{font-size:11px;fill:#555}path.L-gesture{stroke-dasharray:5 3}
    svg text{font-family:monospace;font-size:11px;text-anchor:middle}.L-align text{text-anchor:start;font-size:9px}text.lbl{text-anchor:start}
    body.no-line .L-line,body.no-word .L-word,body.no-char .L-char,body.no-strip .L-strip,body.no-align .L-align,body.no-gesture .L-gesture{display:none}
    .tl{font-size:.8em;display:flex;align-items:center;gap:.3em}.tl button{min-width:2em}.tl input{width:14em}
    .words{display:flex;flex-wrap:wrap;gap:1em}table{border-collapse:collapse;font-size:.8em}
    td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}td:first-child,th:first-child{text-align:left}
    tr.chosen{background:#eef6ff;font-weight:bold}caption{font-weight:bold;text-align:left}table.chg caption,.line.chg>h3{background:#fff2cc}
    details table th{text-align:left;padding-right:1em}del{background:#fdd;text-decoration:line-through}mark{background:#ffe066}
    .cmp{display:flex;gap:1.5em;flex-wrap:wrap}.cmp .side{flex:1;min-width:22em;border-left:3px solid #ccd;padding-left:.6em}
    .figures td.d{font-weight:bold}.better{color:#080}.worse{color:#b00}td.t{text-align:left;font-family:monospace}
    .gallery{display:flex;flex-wrap:wrap;gap:.6em}.card{border:1px solid #ddd;padding:.4em;max-width:100%}.card p{margin:.2em 0;font-size:.85em}
    .sortbar{font-size:.85em;margin:.4em 0}.sortbar button{margin-right:.3em}.bad{color:#b00}.ok{color:#080}
    """

    /// Toggles, timelines and sorting; `#only-ID` in the address shows only that part (a link to
    /// one line or the gallery). Kept free of comments and of anything a browser would fetch.
    static let script = """
    (function(){
    var b=document.body;
    document.querySelectorAll('.layers input').forEach(function(c){c.addEventListener('change',function(){b.classList.toggle('no-'+c.value,!c.checked);});});
    document.querySelectorAll('.tl').forEach(function(t){
    var svg=t.parentNode.querySelector('svg'),r=t.querySelector('input'),c=t.querySelector('.tlc'),n=+r.max,timer=null;
    var paths=svg?svg.querySelectorAll('path[data-i]'):[];
    function show(k){r.value=k;paths.forEach(function(p){p.style.visibility=(+p.getAttribute('data-i'))<k?'visible':'hidden';});c.textContent=k+' / '+n+' strokes';}
    function stop(){if(timer){clearInterval(timer);timer=null;}}
    r.addEventListener('input',function(){stop();show(+r.value);});
    t.addEventListener('click',function(e){var a=e.target.getAttribute('data-a');if(!a)return;
    if(a==='back'){stop();show(Math.max(0,+r.value-1));}
    else if(a==='fwd'){stop();show(Math.min(n,+r.value+1));}
    else if(timer){stop();}
    else{if(+r.value>=n)show(0);timer=setInterval(function(){if(+r.value>=n){stop();return;}show(+r.value+1);},300);}});
    });
    document.querySelectorAll('.sortbar').forEach(function(bar){
    var g=document.getElementById(bar.getAttribute('data-for'));if(!g)return;
    bar.addEventListener('click',function(e){var k=e.target.getAttribute('data-k');if(!k)return;
    var items=Array.prototype.slice.call(g.children);
    items.sort(function(x,y){var ex=+x.getAttribute('data-err'),ey=+y.getAttribute('data-err');
    if(k==='err')return ey-ex;var p=x.getAttribute('data-'+k),q=y.getAttribute('data-'+k);return p<q?-1:p>q?1:ey-ex;});
    items.forEach(function(i){g.appendChild(i);});});
    var sel=bar.querySelector('select');
    if(sel)sel.addEventListener('change',function(){Array.prototype.forEach.call(g.children,function(i){i.style.display=(!sel.value||i.getAttribute('data-cat')===sel.value)?'':'none';});});
    });
    var h=decodeURIComponent(location.hash.slice(1)),t=h.indexOf('only-')===0?document.getElementById(h.slice(5)):null;
    for(var e=t;e&&e!==b;e=e.parentNode){Array.prototype.forEach.call(e.parentNode.children,function(s){if(s!==e&&s.tagName!=='HEADER'&&s.tagName!=='SCRIPT')s.style.display='none';});}
    if(t&&t.tagName==='DETAILS')t.open=true;
    b.setAttribute('data-ready','1');
    })();
    """

    /// Buttons that sort the children of element `id` by error, category or writer, and a
    /// category filter.
    static func sortBar(for id: String, categories: [String]) -> String {
        let options = categories.map { "<option value=\"\(XML.escape($0))\">\(XML.escape($0))</option>" }.joined()
        return "<div class=\"sortbar\" data-for=\"\(id)\">Sort by <button type=\"button\" data-k=\"err\">errors</button>"
            + "<button type=\"button\" data-k=\"cat\">category</button><button type=\"button\" data-k=\"writer\">writer</button>"
            + " Show <select><option value=\"\">all categories</option>\(options)</select></div>"
    }
}
