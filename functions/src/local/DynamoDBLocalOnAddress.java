import java.io.IOException;
import java.lang.reflect.Field;
import java.util.Arrays;

/**
 * Starts DynamoDB Local with its HTTP listener bound to one address (127.0.0.1 for `npm start` and
 * the tests). The jar's own entry point has no such option: its Jetty server listens on every
 * interface, and DynamoDB Local accepts any credentials.
 *
 * Usage: java -cp DynamoDBLocal.jar DynamoDBLocalOnAddress.java ADDRESS [DynamoDB Local options]
 *
 * Run in Java's source-file mode (functions/src/local/dynamo.ts), so there is no build step. The
 * jar is reached by reflection only: this file compiles against the JDK alone. It exits when its
 * stdin ends (the parent process is gone).
 */
public class DynamoDBLocalOnAddress {
  public static void main(String[] args) throws Exception {
    if (args.length < 1) throw new IllegalArgumentException("usage: DynamoDBLocalOnAddress ADDRESS [options]");
    String address = args[0];
    // The parent (functions/src/local/dynamo.ts) holds our stdin open: when it ends, however it ends,
    // the pipe closes and DynamoDB Local goes too instead of keeping the port and the data files.
    Thread parentWatch = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // nothing is sent; only the end of the stream matters
        }
      } catch (IOException e) {
        // a broken pipe is an end too
      }
      System.exit(0);
    });
    parentWatch.setDaemon(true);
    parentWatch.start();
    String[] options = Arrays.copyOfRange(args, 1, args.length);

    // The server the jar's main would build from the same options, not started yet.
    Class<?> runner = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner");
    Object proxy = runner.getMethod("createServerFromCommandLineArgs", String[].class).invoke(null, (Object) options);
    Field field = proxy.getClass().getDeclaredField("server");
    field.setAccessible(true);
    Object jetty = field.get(proxy);

    Object[] connectors = (Object[]) jetty.getClass().getMethod("getConnectors").invoke(jetty);
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind");
    for (Object connector : connectors) {
      connector.getClass().getMethod("setHost", String.class).invoke(connector, address);
    }
    // Jetty's own start: a port that cannot be bound ends the process with an error (the jar's
    // start() prints it and carries on without a server).
    jetty.getClass().getMethod("start").invoke(jetty);
    for (Object connector : connectors) {
      Object host = connector.getClass().getMethod("getHost").invoke(connector);
      Object port = connector.getClass().getMethod("getLocalPort").invoke(connector);
      System.out.println("DynamoDB Local listening on " + host + ":" + port);
    }
  }
}
