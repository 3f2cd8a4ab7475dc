package io.sluice.core.processor;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URLClassLoader;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A user's Java class as a processor. The class either implements {@link Processor} (and is used as
 * it is), or has a public method that takes the {@link Message} or its payload; that method's
 * result becomes the payload (a returned {@code Message} replaces the message; {@code void} leaves
 * it unchanged). The class needs a public no-argument constructor. Unless it says otherwise, it is
 * taken to block.
 */
public final class JavaComponentProcessor implements Processor {

  private final String className;
  private final Processor delegate;
  private final Object target;
  private final Method method;
  private final ProcessingType type;

  private JavaComponentProcessor(
      String className, Processor delegate, Object target, Method method, ProcessingType type) {
    this.className = className;
    this.delegate = delegate;
    this.target = target;
    this.method = method;
    this.type = type;
  }

  /**
   * Loads and instantiates {@code className} from {@code loader}. {@code methodName} null picks the
   * only public method taking one argument; {@code type} null means the component's own (a {@link
   * Processor}'s) or BLOCKING_IO. Any problem is a {@link ConfigurationException} naming {@code
   * path}, the class and, when it is missing, the classpath searched.
   */
  public static JavaComponentProcessor load(
      String path, String className, String methodName, ProcessingType type, ClassLoader loader) {
    Object instance = instantiate(path, className, loader);
    if (instance instanceof Processor processor && methodName == null) {
      return new JavaComponentProcessor(
          className, processor, null, null, type != null ? type : processor.processingType());
    }
    Method method = findMethod(path, instance.getClass(), methodName);
    return new JavaComponentProcessor(
        className, null, instance, method, type != null ? type : ProcessingType.BLOCKING_IO);
  }

  /**
   * Loads {@code className} from {@code loader} and makes one with its public constructor without
   * arguments: how every user class named in a configuration is made (processors, job handlers).
   * Any problem is a {@link ConfigurationException} at {@code path.class} naming the class and,
   * when it is missing, the classpath searched.
   */
  public static Object instantiate(String path, String className, ClassLoader loader) {
    Class<?> type;
    try {
      type = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigurationException(
          ConfigProblem.of(
              path + ".class",
              className,
              "could not be loaded (" + e + "); searched the classpath: " + classpath(loader)));
    }
    try {
      return type.getConstructor().newInstance();
    } catch (NoSuchMethodException e) {
      throw new ConfigurationException(
          ConfigProblem.of(
              path + ".class", className, "needs a public constructor without arguments"));
    } catch (ReflectiveOperationException | RuntimeException e) {
      Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      throw new ConfigurationException(
          ConfigProblem.of(path + ".class", className, "could not be instantiated: " + cause));
    }
  }

  private static Method findMethod(String path, Class<?> type, String name) {
    List<Method> candidates =
        Arrays.stream(type.getMethods())
            .filter(m -> !Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 1)
            .filter(JavaComponentProcessor::isOwnMethod)
            .filter(m -> name == null || m.getName().equals(name))
            .toList();
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    String rule =
        candidates.isEmpty()
            ? (name == null
                ? "has no public method taking one argument (the message or its payload);"
                    + " implement io.sluice.core.spi.Processor or add one"
                : "has no public method '" + name + "' taking one argument")
            : "has "
                + candidates.size()
                + " public one-argument methods"
                + (name == null ? "" : " named '" + name + "'")
                + "; name the one to call with"
                + " 'method' ("
                + candidates.stream().map(Method::toString).collect(Collectors.joining("; "))
                + ")";
    throw new ConfigurationException(ConfigProblem.of(path + ".class", type.getName(), rule));
  }

  /**
   * Whether the component's author wrote this method to be called: not the compiler's bridge for a
   * generic interface, not the JDK's (Function.andThen, Object's), not an equals override.
   */
  private static boolean isOwnMethod(Method m) {
    boolean equalsOverride =
        m.getName().equals("equals") && m.getParameterTypes()[0] == Object.class;
    return !m.isBridge()
        && !m.isSynthetic()
        && !equalsOverride
        && !m.getDeclaringClass().getName().startsWith("java.");
  }

  private static String classpath(ClassLoader loader) {
    StringBuilder where = new StringBuilder();
    for (ClassLoader l = loader; l != null; l = l.getParent()) {
      if (l instanceof URLClassLoader urls && urls.getURLs().length > 0) {
        where.append(Arrays.toString(urls.getURLs())).append(' ');
      }
    }
    return where.append(System.getProperty("java.class.path")).toString();
  }

  @Override
  public void start(FlowContext context) throws Exception {
    if (delegate != null) {
      delegate.start(context);
    }
  }

  @Override
  public void stop() {
    if (delegate != null) {
      delegate.stop();
    }
  }

  @Override
  public Message process(Message message) throws Exception {
    if (delegate != null) {
      return delegate.process(message);
    }
    Class<?> parameter = method.getParameterTypes()[0];
    Object argument = parameter == Message.class ? message : message.payload();
    if (argument != null && !parameter.isInstance(argument) && !parameter.isPrimitive()) {
      throw new SluiceException(
          className
              + "."
              + method.getName()
              + " takes a "
              + parameter.getName()
              + " but the payload is a "
              + argument.getClass().getName());
    }
    Object result;
    try {
      result = method.invoke(target, argument);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
    if (method.getReturnType() == void.class) {
      return message;
    }
    return result instanceof Message m ? m : message.withPayload(result);
  }

  @Override
  public ProcessingType processingType() {
    return type;
  }

  @Override
  public String name() {
    return "component(" + className + ")";
  }
}
