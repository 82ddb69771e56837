"""The server of bench/agents.sh: answers every HTTP/1.1 request with 200 and records
when each arrived (time.time_ns() when its bytes were read) and from which address, so
the schedule the agents sent together can be seen where it lands. Written to the file
named first when SIGTERM comes. asyncio: a few thousand requests a second is all the
benchmark offers."""
import asyncio
import signal
import sys
import time

OUT, HOST, PORT = sys.argv[1], sys.argv[2], int(sys.argv[3])
ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
arrivals = []


async def serve(reader, writer):
    peer = writer.get_extra_info("peername")[0]
    buf = b""
    while True:
        data = await reader.read(65536)
        if not data:
            break
        now = time.time_ns()
        buf += data
        while True:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                break
            buf = buf[end + 4:]
            arrivals.append((now, peer))
            writer.write(ANSWER)
    writer.close()


async def main():
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    server = await asyncio.start_server(serve, HOST, PORT, backlog=1024)
    print("listening", flush=True)
    await stop.wait()
    server.close()
    with open(OUT, "w") as f:
        for t, peer in arrivals:
            f.write(f"{t}\t{peer}\n")


asyncio.run(main())
