import requests, time, json
S="http://127.0.0.1:18082"
targets=["http://127.0.0.1:18090/","http://localhost:18090/","http://[::1]:18090/","http://0.0.0.0:18090/","http://169.254.169.254/","http://10.0.0.1/",
"http://2130706433:18090/","http://0177.0.0.1:18090/","http://0x7f.1:18090/","http://127.1:18090/","http://[::ffff:127.0.0.1]:18090/","http://[::ffff:7f00:1]:18090/",
"http://[::127.0.0.1]:18090/","http://[64:ff9b::7f00:1]:18090/","http://[fe80::1]/","http://[fc00::1]/","http://100.64.0.1/","http://198.18.0.1/","http://224.0.0.1/",
"http://255.255.255.255/","http://240.0.0.1/","http://[2002:7f00:1::]/","http://[::]:18090/","http://example.com@127.0.0.1:18090/","https://127.0.0.1:18090/","ftp://127.0.0.1:18090/",
"http://127.0.0.1.:18090/","http://LOCALHOST:18090/","http://localhost.:18090/","http://[0:0:0:0:0:ffff:127.0.0.1]:18090/","http://192.168.1.1/","http://172.16.0.1/","http://0/","http://[::ffff:a9fe:a9fe]/"]
for t in targets:
    while True:
        r=requests.post(S+"/api/fetch",json={"url":t},timeout=30)
        if r.status_code==429: time.sleep(int(r.headers.get("retry-after","1"))); continue
        break
    j=r.json()
    msg=j.get("error") or (j["report"]["outcome"]+" hops="+str([h["url"] for h in j["report"]["hops"]]))
    print(r.status_code, t, "->", msg[:200], flush=True)
